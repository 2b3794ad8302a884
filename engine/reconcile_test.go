package engine_test

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"
	"time"

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
	inBubble(t, engine.Config{ReconcileInterval: time.Minute, Repair: true}, func(t *testing.T, r *rig) {
		tp := r.template(t, coupon.Template{Name: "t", Value: 1, StartsAt: time.Now(), Duration: time.Hour})
		r.claim(t, tp.ID, "u")
		ctx := context.Background()
		if err := r.st.DeleteTimers(ctx, store.DeleteTimersParams{Kind: storetype.TimerExpire, Through: time.Now().Add(2 * time.Hour)}); err != nil {
			t.Fatalf("delete timers: %v", err)
		}
		drift := engine.DriftOf(r.metrics, store.CheckTimer)
		wantValue(t, drift, 0, "drift before a run")
		r.start(t)
		time.Sleep(time.Minute + tick)
		synctest.Wait()
		wantValue(t, drift, 1, "drift of the first run")
		wantRepaired := func(what string) {
			t.Helper()
			got := r.ofType(t, store.EventTimerRepaired)
			if len(got) != 1 || !strings.Contains(string(got[0].Data), `"actor":"`+engine.ReconcileActor+`"`) {
				t.Fatalf("%s: timer.repaired events %+v, want one by %s", what, got, engine.ReconcileActor)
			}
		}
		wantRepaired("first run")
		time.Sleep(time.Minute)
		synctest.Wait()
		wantValue(t, drift, 0, "drift of the second run")
		wantRepaired("second run")
	})
}
