package engine_test

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/engine"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// TestReconcileRepairs: the engine reconciles every ReconcileInterval;
// with Repair, a run that finds an expiry timer lost puts it back with
// one timer.repaired event by the reconcile actor, and the drift gauge
// says what each run found.
func TestReconcileRepairs(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := setup(t, dbPath(t), engine.Config{ReconcileInterval: time.Minute, Repair: true})
		tp := r.template(t, coupon.Template{Name: "t", Value: 1, StartsAt: time.Now(), Duration: time.Hour})
		r.claim(t, tp.ID, "u")
		ctx := context.Background()
		if err := r.st.DeleteTimers(ctx, store.DeleteTimersParams{Kind: storetype.TimerExpire, Through: time.Now().Add(2 * time.Hour)}); err != nil {
			t.Fatalf("delete timers: %v", err)
		}
		drift := engine.DriftOf(r.metrics, store.CheckTimer)
		if got := testutil.ToFloat64(drift); got != 0 {
			t.Fatalf("drift before a run: got %v, want 0", got)
		}
		if err := r.eng.Start(ctx); err != nil {
			t.Fatalf("start: %v", err)
		}
		time.Sleep(time.Minute + tick)
		synctest.Wait()
		if got := testutil.ToFloat64(drift); got != 1 {
			t.Fatalf("drift of the first run: got %v, want 1", got)
		}
		wantRepaired := func(what string) {
			t.Helper()
			var got []storetype.Event
			for _, e := range r.feed(t) {
				if e.Type == store.EventTimerRepaired {
					got = append(got, e)
				}
			}
			if len(got) != 1 || !strings.Contains(string(got[0].Data), `"actor":"`+engine.ReconcileActor+`"`) {
				t.Fatalf("%s: timer.repaired events %+v, want one by %s", what, got, engine.ReconcileActor)
			}
		}
		wantRepaired("first run")
		time.Sleep(time.Minute)
		synctest.Wait()
		if got := testutil.ToFloat64(drift); got != 0 {
			t.Fatalf("drift of the second run: got %v, want 0", got)
		}
		wantRepaired("second run")
	})
}
