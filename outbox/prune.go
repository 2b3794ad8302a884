package outbox

import (
	"context"
	"log/slog"
	"math"
	"time"

	"github.com/lapsehq/lapse/store"
)

// pruneLoop prunes every PruneInterval until ctx is done.
func (r *Relay) pruneLoop(ctx context.Context) {
	t := time.NewTicker(r.cfg.PruneInterval)
	defer t.Stop()
	for {
		if n, err := r.Prune(ctx); err != nil {
			if ctx.Err() == nil && !r.cfg.Outage.Failed(err) {
				r.cfg.Log.Error("outbox: prune", slog.Any("err", err))
			}
		} else if n > 0 {
			r.cfg.Log.Info("outbox: pruned", slog.Int64("events", n))
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Prune deletes, from the front of the feed, the events older than
// Retention that every sink has passed, PruneBatch records per
// transaction so that transitions wait for one small batch at most. It
// stops at the first record that must stay. It returns how many events
// it deleted.
func (r *Relay) Prune(ctx context.Context) (int64, error) {
	p := store.PruneParams{Through: math.MaxInt64, Before: r.cfg.Now().Add(-r.cfg.Retention), Limit: r.cfg.PruneBatch}
	for _, run := range r.runners {
		st, err := r.cfg.Store.SinkState(ctx, run.Name)
		if err != nil {
			return 0, err
		}
		p.Through = min(p.Through, st.Position)
	}
	var total int64
	for ctx.Err() == nil {
		n, err := r.cfg.Store.PruneEvents(ctx, p)
		total += n
		r.metrics.pruned.Add(float64(n))
		if err != nil || n == 0 {
			return total, err
		}
	}
	return total, ctx.Err()
}
