package engine_test

import (
	"context"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/lapsehq/lapse/engine"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/store/sqlite"
	"github.com/lapsehq/lapse/timer"
)

// TestOperationInBatches: on every store, the engine works a bulk void
// in batches of OperationBatch coupons, each batch one commit with its
// coupons' events, until every coupon is voided.
func TestOperationInBatches(t *testing.T) {
	// SQLite is no shared store, but opens as one does.
	embedded := sharedStore{"sqlite", func(t testing.TB) string { return filepath.Join(t.TempDir(), "lapse.db") },
		func(ctx context.Context, path string, hooks store.Hooks) (*store.DB, error) {
			return sqlite.Open(ctx, path, sqlite.Options{Hooks: hooks})
		}}
	for _, s := range append([]sharedStore{embedded}, sharedStores...) {
		t.Run(s.name, func(t *testing.T) {
			var (
				mu      sync.Mutex
				batches []int
			)
			st := s.open(t, store.Hooks{OnEvents: func(es []store.Event) {
				voided := 0
				for _, e := range es {
					if e.Type == store.EventCouponVoided {
						voided++
					}
				}
				if voided > 0 {
					mu.Lock()
					batches = append(batches, voided)
					mu.Unlock()
				}
			}})
			tpl := issueDue(t, st, 30, time.Now().Add(time.Hour))
			op, err := st.StartOperation(t.Context(), store.StartOperationParams{Kind: store.OperationVoid,
				Target: store.OperationTarget{TemplateID: tpl}, Now: time.Now()})
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
			deadline := time.Now().Add(15 * time.Second)
			for op.State != store.OperationDone {
				if time.Now().After(deadline) {
					t.Fatalf("operation not done in 15s: %+v", op)
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
