package engine_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/lapsehq/lapse/driver/sqlite"
	"github.com/lapsehq/lapse/engine"
	"github.com/lapsehq/lapse/outbox/outboxtest"
	"github.com/lapsehq/lapse/store"
)

// TestPacedStorm: users who feel every batch slow a storm's drain to the
// pace's slowest, turning first the knob lapse serve turns on the store, batches of 20 rows resting 63 times as long as each
// took, and so paced the drain still expires every coupon once, none
// early, on each store. The users are what the pace hears: after an idle
// baseline of 1 ms writes, writes of an hour, which always meet a batch.
func TestPacedStorm(t *testing.T) {
	stores := append([]sharedStore{{"sqlite", dbPath, func(ctx context.Context, path string, hooks store.Hooks) (*store.DB, error) {
		return store.Options{Hooks: hooks}.Open(sqlite.Open(ctx, path, sqlite.Options{}))
	}}}, sharedStores...)
	knob := map[string]engine.Knob{"sqlite": engine.BatchFirst, "postgres": engine.ShareFirst, "mysql": engine.ShareFirst}
	for _, s := range stores {
		t.Run(s.name, func(t *testing.T) {
			pace := engine.NewPace(1.5, knob[s.name], time.Now)
			for range 100 {
				pace.Observe(time.Millisecond)
			}
			in := startWith(t, s, s.url(t), engine.Config{Now: time.Now, Pace: pace})
			// A first batch, of one coupon, before the storm: from then
			// on a write of an hour began before the last batch ended.
			issueDue(t, in.st, 1, time.Now().Add(500*time.Millisecond))
			waitAllExpired(t, in, 1, 15*time.Second)
			slow := func() { pace.Observe(time.Hour) }
			for range 400 { // each slows it by paceDown: 28 take it to its least
				slow()
			}
			batch, share := engine.PaceOf(in.metrics)
			if b, sh := testutil.ToFloat64(batch), testutil.ToFloat64(share); b != 20 || sh != 1.0/64 {
				t.Fatalf("pace before the storm: batch %v share %v, want 20 and 1/64", b, sh)
			}
			users, stop := sync.WaitGroup{}, make(chan struct{})
			users.Go(func() {
				for {
					select {
					case <-stop:
						return
					case <-time.After(5 * time.Millisecond):
						slow()
					}
				}
			})
			defer users.Wait()
			defer close(stop)

			const n = 200
			due := time.Now().Add(time.Second)
			tpl := issueDue(t, in.st, n, due)
			waitAllExpired(t, in, n+1, 2*time.Minute)
			t.Logf("the paced storm of %d drained %s after it fell due", n, time.Since(due).Round(time.Millisecond))
			batches := map[time.Time]int{}
			for _, e := range outboxtest.OfType(outboxtest.Feed(t, in.st), store.EventCouponExpired) {
				c, err := in.st.Coupon(t.Context(), e.Subject)
				if err != nil || c.TemplateID != tpl {
					continue
				}
				if e.Time.Before(c.ExpiresAt.Truncate(time.Millisecond)) {
					t.Fatalf("%s: expired at %s, due %s: early", e.Subject, e.Time, c.ExpiresAt)
				}
				batches[e.Time]++
			}
			total := 0
			for at, k := range batches {
				if k > 20 {
					t.Fatalf("the batch at %s expired %d coupons, want at most the pace's 20", at, k)
				}
				total += k
			}
			if total != n || len(batches) < n/20 {
				t.Fatalf("the storm: %d coupons expired in %d batches, want %d in at least %d", total, len(batches), n, n/20)
			}
			if got := in.expired(); got != n+1 {
				t.Fatalf("the engine committed %v expiries, want %d (each once)", got, n+1)
			}
			if b, sh := testutil.ToFloat64(batch), testutil.ToFloat64(share); b != 20 || sh != 1.0/64 {
				t.Fatalf("pace after the storm: batch %v share %v, want 20 and 1/64", b, sh)
			}
		})
	}
}
