package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/storetype"
)

// Timers returns group timers due at or before p.Before, outside a
// transaction on the engine pool: the engine loads them.
func (e *executor) Timers(ctx context.Context, p storetype.TimersParams) ([]storetype.Timer, error) {
	rows, err := e.engine.Query(ctx, queries.Get("DueTimers"), p.Before, p.Limit)
	if err != nil {
		return nil, err
	}
	var (
		out []storetype.Timer
		tm  storetype.Timer
	)
	_, err = pgx.ForEachRow(rows, []any{&tm.Kind, &tm.Due}, func() error {
		out = append(out, tm)
		return nil
	})
	return out, err
}

// DeleteTimers removes the timers of kind p.Kind whose bucket ended by
// p.Through.
func (e *executor) DeleteTimers(ctx context.Context, p driver.DeleteTimersParams) error {
	_, err := e.exec(ctx, "DeleteTimers", string(p.Kind), p.Through.Add(-storetype.TimerBucket))
	return err
}
