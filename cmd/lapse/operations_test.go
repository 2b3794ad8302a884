package main

import (
	"fmt"
	"net/http"
	"os"
	"strconv"
	"testing"
	"time"

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

// operationJSON is what the tests read of an operation.
type operationJSON struct {
	ID       string `json:"id"`
	State    string `json:"state"`
	Progress struct {
		Done  int `json:"done"`
		Total int `json:"total"`
	} `json:"progress"`
	Counts struct {
		Voided        int `json:"voided"`
		PendingLocked int `json:"pending_locked"`
	} `json:"counts"`
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
	var tpl struct{ ID string }
	s.call(t, "POST", "/v1/templates", map[string]any{"name": "leaked", "value": 100, "validity": map[string]any{"duration": "720h"}}, &tpl, http.StatusCreated)
	s.issue(t, tpl.ID, n)
	var ids []string
	for id := range s.eventsOf(t, "coupon.claimed") {
		ids = append(ids, id)
	}
	// Ten locks end by their TTL, ten are unlocked by their order.
	locked := ids[:20]
	for i, id := range locked {
		ttl := "3s"
		if i >= 10 {
			ttl = "15m"
		}
		s.call(t, "POST", "/v1/coupons/"+id+"/lock", map[string]any{"order_id": fmt.Sprintf("o%d", i), "ttl": ttl}, nil, http.StatusOK)
	}

	started := time.Now()
	body := map[string]any{"reason": "leaked"}
	key := http.Header{"Idempotency-Key": {"bulk-void-1"}}
	var op operationJSON
	s.callWith(t, key, "POST", "/v1/templates/"+tpl.ID+"/void", body, &op, http.StatusAccepted)
	waitUntil(t, "the operation's first batch", func() bool {
		s.call(t, "GET", "/v1/operations/"+op.ID, nil, &op, http.StatusOK)
		return op.Progress.Done > 0
	})
	if err := s.cmd.Process.Kill(); err != nil {
		t.Fatalf("SIGKILL: %v", err)
	}
	s.cmd.Wait()
	st := openStopped(t, be, db)
	left, err := st.Operation(t.Context(), op.ID)
	st.Close()
	if err != nil || left.Done >= int64(n) {
		t.Fatalf("the kill came after the operation was done (%+v, %v): nothing was tested", left, err)
	}
	t.Logf("killed with %d of %d coupons worked", left.Done, n)

	s2 := start(t, db)
	var again operationJSON
	s2.callWith(t, key, "POST", "/v1/templates/"+tpl.ID+"/void", body, &again, http.StatusAccepted)
	if again.ID != op.ID {
		t.Fatalf("the same request again: operation %s, want %s", again.ID, op.ID)
	}
	for deadline := time.Now().Add(10 * time.Minute); op.State != "done"; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("operation not done in 10 minutes: %+v; log:\n%s", op, s2.log.String())
		}
		s2.call(t, "GET", "/v1/operations/"+op.ID, nil, &op, http.StatusOK)
	}
	t.Logf("%d coupons voided in %s, a kill and a restart included", n, time.Since(started).Round(time.Millisecond))
	// A lock whose TTL passed before the operation came to it was voided
	// unused; the others are pending.
	if op.Progress.Done != n || op.Counts.Voided+op.Counts.PendingLocked != n || op.Counts.PendingLocked < 10 {
		t.Fatalf("operation: got %+v, want %d done, voided or (10 to 20) pending locked", op, n)
	}
	for i, id := range locked[10:] {
		c := clienttest.Must(s2.api.Unlock(t.Context(), id, fmt.Sprintf("o%d", i+10))).On(t)
		if c.Status != "voided" {
			t.Fatalf("coupon %s unlocked: got %s, want voided", id, c.Status)
		}
	}
	waitUntil(t, "the locks passed by TTL to end", func() bool {
		var info struct{ Counts map[string]int }
		s2.call(t, "GET", "/v1/templates/"+tpl.ID, nil, &info, http.StatusOK)
		return info.Counts["voided"] == n && info.Counts["locked"] == 0 && info.Counts["unused"] == 0
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
