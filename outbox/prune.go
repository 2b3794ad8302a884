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
			if ctx.Err() == nil {
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
// Retention that every sink has passed, PruneBatch per transaction so
// that transitions wait for one small batch at most. It stops at the
// first event that must stay. It returns how many it deleted.
func (r *Relay) Prune(ctx context.Context) (int64, error) {
	cutoff := r.cfg.Now().Add(-r.cfg.Retention)
	through := int64(math.MaxInt64)
	for _, run := range r.runners {
		st, err := r.cfg.Store.SinkState(ctx, run.Name)
		if err != nil {
			return 0, err
		}
		through = min(through, st.Position)
	}
	var total int64
	for ctx.Err() == nil {
		front, err := r.cfg.Store.Events(ctx, store.EventsParams{Limit: r.cfg.PruneBatch})
		if err != nil {
			return total, err
		}
		k := 0
		for k < len(front) && front[k].Seq <= through && front[k].Time.Before(cutoff) {
			k++
		}
		if k == 0 {
			return total, nil
		}
		n, err := r.cfg.Store.PruneEvents(ctx, store.PruneParams{Through: front[k-1].Seq, Limit: k})
		total += n
		r.metrics.pruned.Add(float64(n))
		if err != nil || k < len(front) {
			return total, err
		}
	}
	return total, ctx.Err()
}
