package engine_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver/sqlite"
	"github.com/lapsehq/lapse/engine"
	"github.com/lapsehq/lapse/outbox/outboxtest"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
	"github.com/lapsehq/lapse/timer"
)

// TestOperationInBatches: on every store, the engine works a bulk void
// in batches of OperationBatch coupons, each batch one commit with its
// coupons' events, until every coupon is voided.
func TestOperationInBatches(t *testing.T) {
	// SQLite is no shared store, but opens as one does.
	embedded := sharedStore{"sqlite", dbPath,
		func(ctx context.Context, path string, hooks store.Hooks) (*store.DB, error) {
			return store.Options{Hooks: hooks}.Open(sqlite.Open(ctx, path, sqlite.Options{}))
		}}
	for _, s := range append([]sharedStore{embedded}, sharedStores...) {
		t.Run(s.name, func(t *testing.T) {
			var (
				mu      sync.Mutex
				batches []int
			)
			st := s.open(t, store.Hooks{OnEvents: func(es []storetype.Event) {
				if voided := len(outboxtest.OfType(es, store.EventCouponVoided)); voided > 0 {
					mu.Lock()
					batches = append(batches, voided)
					mu.Unlock()
				}
			}})
			tpl := issueDue(t, st, 30, time.Now().Add(time.Hour))
			op, err := st.StartOperation(t.Context(), store.StartOperationParams{Kind: storetype.OperationVoid,
				Target: storetype.OperationTarget{TemplateID: tpl}, Now: time.Now()})
			if err != nil {
				t.Fatalf("start operation: %v", err)
			}
			holder := ""
			if s.name != embedded.name {
				holder = "a"
			}
			eng := engine.New(engine.Config{Store: st, Wheel: timer.NewWheel(tick, 1024, time.Now), Now: time.Now,
				Holder: holder, LeaseTTL: 1500 * time.Millisecond, OperationBatch: 7, OperationShare: 0.5})
			if err := eng.Start(t.Context()); err != nil {
				t.Fatalf("start: %v", err)
			}
			t.Cleanup(eng.Stop)
			// OnEvents runs after a batch commits, so the last batch's
			// hook may come just after the operation reads done.
			seen := func() (n int) {
				mu.Lock()
				defer mu.Unlock()
				for _, b := range batches {
					n += b
				}
				return n
			}
			deadline := time.Now().Add(15 * time.Second)
			for op.State != storetype.OperationDone || seen() < 30 {
				if time.Now().After(deadline) {
					t.Fatalf("operation not done, or its events not all seen, in 15s: %+v, %d voided seen", op, seen())
				}
				time.Sleep(20 * time.Millisecond)
				if op, err = st.Operation(t.Context(), op.ID); err != nil {
					t.Fatalf("operation: %v", err)
				}
			}
			mu.Lock()
			defer mu.Unlock()
			if want := []int{7, 7, 7, 7, 2}; !slices.Equal(batches, want) || op.Counts.Voided != 30 {
				t.Fatalf("voided %d in commits of %v, want 30 in %v", op.Counts.Voided, batches, want)
			}
		})
	}
}

// TestExtendAcceptedBeforeExpiry: an extension accepted 800 ms before
// coupons expire is first worked on the engine's next poll, after they
// expired: they stay expired (an expiry is never undone) and the
// operation counts them missed, while the coupon still unused when it
// comes is extended; on the bubble's fake clock.
func TestExtendAcceptedBeforeExpiry(t *testing.T) {
	inBubble(t, engine.Config{OperationPoll: time.Second}, func(t *testing.T, r *rig) {
		tp := r.template(t, coupon.Template{Duration: 2 * time.Second})
		soon := []coupon.Coupon{r.claim(t, tp.ID, "u1"), r.claim(t, tp.ID, "u2"), r.claim(t, tp.ID, "u3")}
		r.start(t)
		time.Sleep(500 * time.Millisecond)
		kept := r.claim(t, tp.ID, "u4")
		time.Sleep(time.Until(soon[0].ExpiresAt) - 800*time.Millisecond)
		op, err := r.st.StartOperation(context.Background(), store.StartOperationParams{Kind: storetype.OperationExtend,
			Target: storetype.OperationTarget{TemplateID: tp.ID}, Args: storetype.OperationArgs{By: time.Hour}, Now: time.Now()})
		if err != nil {
			t.Fatalf("start operation: %v", err)
		}
		time.Sleep(3 * time.Second)
		synctest.Wait()
		if op, err = r.st.Operation(context.Background(), op.ID); err != nil {
			t.Fatal(err)
		}
		if op.State != storetype.OperationDone || op.Counts.Missed != 3 || op.Counts.Extended != 1 || op.Done != 4 || op.Total != 4 {
			t.Fatalf("operation: %s, counts %+v, progress %d of %d; want done, 3 missed, 1 extended, 4 of 4", op.State, op.Counts, op.Done, op.Total)
		}
		for _, c := range soon {
			r.wantStatus(t, c.ID, coupon.Expired, "coupon "+c.ID)
		}
		if got, err := r.st.Coupon(context.Background(), kept.ID); err != nil || !got.ExpiresAt.Equal(kept.ExpiresAt.Add(time.Hour)) {
			t.Fatalf("coupon still unused when worked: %+v, %v; want it extended by 1h", got, err)
		}
	})
}
