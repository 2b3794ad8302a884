package engine

import (
	"context"
	"log/slog"
	"time"

	"github.com/lapsehq/lapse/store"
)

// reportSkew records in the store that this instance is alive with its
// clock skew against the database's, so that the console of any instance
// shows every instance's.
func (e *Engine) reportSkew(ctx context.Context, skew time.Duration) {
	err := e.cfg.Store.MeasuredSkew(ctx, store.MeasuredSkewParams{Instance: e.cfg.Instance, Skew: skew})
	if err != nil && ctx.Err() == nil && !e.cfg.Outage.Failed(err) {
		e.cfg.Log.Error("engine: record this instance's clock skew", slog.Any("err", err))
	}
}

// measureSkew measures and records the clock skew of an engine that
// drains the whole store alone: its own clock is the authority, so the
// skew it reads (of the database's clock in the same process, for an
// embedded store) only informs.
func (e *Engine) measureSkew(ctx context.Context) {
	skew, _, _, err := readSkew(ctx, e.cfg.Store, time.Now)
	if err != nil {
		if ctx.Err() == nil && !e.cfg.Outage.Failed(err) {
			e.cfg.Log.Error("engine: read the database clock", slog.Any("err", err))
		}
		return
	}
	e.reportSkew(ctx, skew)
}
