package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/lapsehq/lapse/client"
	"github.com/lapsehq/lapse/client/clienttest"
)

// bulkVoidCoupons is how many coupons TestKill9MidBulkVoid voids on a
// backend: LAPSE_TEST_BULK_VOID if set (1000000 for the issue's run),
// else 100,000 on SQLite and 30,000 on PostgreSQL and MySQL, sized for
// CI.
func bulkVoidCoupons(t *testing.T, be backend) int {
	t.Helper()
	if v := os.Getenv("LAPSE_TEST_BULK_VOID"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 100 {
			t.Fatalf("LAPSE_TEST_BULK_VOID=%q: want a count of at least 100", v)
		}
		return n
	}
	if be.name == sqliteBackend.name {
		return 100_000
	}
	return 30_000
}

// TestKill9MidBulkVoid kills lapse with SIGKILL in the middle of a bulk
// void of a template's coupons, some of them locked; the same request
// again after a restart, under the same key, is the same operation,
// which resumes: every coupon ends voided with exactly one coupon.voided
// event, the locked ones once their locks end (by TTL, or unlocked).
func TestKill9MidBulkVoid(t *testing.T) { onEach(t, testKill9MidBulkVoid) }

func testKill9MidBulkVoid(t *testing.T, be backend) {
	n := bulkVoidCoupons(t, be)
	db := be.store(t)
	s := start(t, db, "--batch-size", "500")
	ctx := t.Context()
	tpl := clienttest.Must(s.api.CreateTemplate(ctx, client.NewTemplate{Name: "leaked", Value: 100,
		Validity: client.Validity{Duration: client.Duration(720 * time.Hour)}})).On(t)
	s.issue(t, tpl.ID, n)
	var ids []string
	for id := range s.eventsOf(t, "coupon.claimed") {
		ids = append(ids, id)
	}
	// Ten locks end by their TTL, ten are unlocked by their order.
	locked := ids[:20]
	for i, id := range locked {
		ttl := 3 * time.Second
		if i >= 10 {
			ttl = 15 * time.Minute
		}
		clienttest.Must(s.api.Lock(ctx, id, client.LockParams{OrderID: fmt.Sprintf("o%d", i), TTL: client.Duration(ttl)})).On(t)
	}

	started := time.Now()
	keyed := client.VoidTemplateParams{Reason: "leaked", IdempotencyKey: "bulk-void-1"}
	op := clienttest.Must(s.api.VoidTemplate(ctx, tpl.ID, keyed)).On(t)
	waitUntil(t, "the operation's first batch", func() bool {
		op = clienttest.Must(s.api.Operation(ctx, op.ID)).On(t)
		return op.Progress.Done > 0
	})
	if err := s.cmd.Process.Kill(); err != nil {
		t.Fatalf("SIGKILL: %v", err)
	}
	s.cmd.Wait()
	st := openStopped(t, be, db)
	left, err := st.Operation(ctx, op.ID)
	st.Close()
	if err != nil || left.Done >= int64(n) {
		t.Fatalf("the kill came after the operation was done (%+v, %v): nothing was tested", left, err)
	}
	t.Logf("killed with %d of %d coupons worked", left.Done, n)

	s2 := start(t, db)
	again := clienttest.Must(s2.api.VoidTemplate(ctx, tpl.ID, keyed)).On(t)
	if again.ID != op.ID {
		t.Fatalf("the same request again: operation %s, want %s", again.ID, op.ID)
	}
	waitCtx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	op, err = s2.api.WaitOperation(waitCtx, op.ID, nil)
	if err != nil {
		t.Fatalf("operation not done in 10 minutes: %+v, %v; log:\n%s", op, err, s2.log.String())
	}
	t.Logf("%d coupons voided in %s, a kill and a restart included", n, time.Since(started).Round(time.Millisecond))
	// A lock whose TTL passed before the operation came to it was voided
	// unused; the others are pending.
	if op.Progress.Done != int64(n) || op.Counts.Voided+op.Counts.PendingLocked != int64(n) || op.Counts.PendingLocked < 10 {
		t.Fatalf("operation: got %+v, want %d done, voided or (10 to 20) pending locked", op, n)
	}
	for i, id := range locked[10:] {
		c := clienttest.Must(s2.api.Unlock(ctx, id, client.UnlockParams{OrderID: fmt.Sprintf("o%d", i+10)})).On(t)
		if c.Status != "voided" {
			t.Fatalf("coupon %s unlocked: got %s, want voided", id, c.Status)
		}
	}
	waitUntil(t, "the locks passed by TTL to end", func() bool {
		counts := clienttest.Must(s2.api.Template(ctx, tpl.ID)).On(t).Counts
		return counts.Voided == int64(n) && counts.Locked == 0 && counts.Unused == 0
	})
	voided := s2.eventsOf(t, "coupon.voided") // fails on a second event of a coupon
	if len(voided) != n {
		t.Fatalf("coupon.voided events: got %d, want %d", len(voided), n)
	}
	for _, id := range ids {
		if _, ok := voided[id]; !ok {
			t.Fatalf("coupon %s has no coupon.voided event", id)
		}
	}
}
