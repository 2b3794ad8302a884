package engine

import (
	"context"
	"log/slog"

	"github.com/lapsehq/lapse/store"
)

// ReconcileActor is the actor of the events the engine's repairs write.
const ReconcileActor = "reconcile"

// reconcile runs the store's reconciliation (see store.Reconciliation),
// repairing if Config.Repair, exports what it found per check and logs
// any drift. One instance of many runs it: the one that leads. An engine
// whose clock is not to be trusted (see Err) leaves it.
func (e *Engine) reconcile(ctx context.Context) {
	if e.Err() != nil || !e.Leads() {
		return
	}
	ctx = store.WithActor(ctx, ReconcileActor)
	r, err := e.cfg.Store.Reconcile(ctx, store.ReconcileParams{Repair: e.cfg.Repair, Now: e.cfg.Now()})
	if err != nil {
		e.logErr("engine: reconcile", err)
		return
	}
	e.cfg.Metrics.reconciled(r.Counts)
	for _, check := range store.Checks {
		if n := r.Counts[check]; n > 0 {
			e.cfg.Log.Warn("engine: reconcile found drift", slog.String("check", check), slog.Int64("drift", n),
				slog.Int64("repaired", repairedOf(r, check)))
		}
	}
}

// repairedOf counts the drifts of check that r repaired.
func repairedOf(r store.Reconciliation, check string) int64 {
	var n int64
	for _, d := range r.Drift {
		if d.Check == check && d.Repaired {
			n++
		}
	}
	return n
}
