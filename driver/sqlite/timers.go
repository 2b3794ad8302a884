package sqlite

import (
	"context"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/sqlite/internal/dbsqlc"
	"github.com/lapsehq/lapse/storetype"
)

// Timers returns group timers due at or before p.Before.
func (e *executor) Timers(ctx context.Context, p storetype.TimersParams) ([]storetype.Timer, error) {
	rows, err := e.q().DueTimers(ctx, dbsqlc.DueTimersParams{Before: ms(p.Before), PageSize: int64(p.Limit)})
	return sqlfile.Convert(rows, err, func(r dbsqlc.DueTimersRow) (storetype.Timer, error) {
		return storetype.Timer{Kind: storetype.TimerKind(r.Kind), Due: at(r.DueAt)}, nil
	})
}

// DeleteTimers removes the timers of kind p.Kind whose bucket ended by
// p.Through.
func (e *executor) DeleteTimers(ctx context.Context, p driver.DeleteTimersParams) error {
	return e.q().DeleteTimers(ctx, dbsqlc.DeleteTimersParams{
		Kind: string(p.Kind), Through: ms(p.Through.Add(-storetype.TimerBucket)),
	})
}
