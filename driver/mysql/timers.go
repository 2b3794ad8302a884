package mysql

import (
	"context"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/mysql/internal/dbsqlc"
	"github.com/lapsehq/lapse/storetype"
)

// Timers returns group timers due at or before p.Before, outside a
// transaction on the engine pool: the engine loads them.
func (e *executor) Timers(ctx context.Context, p storetype.TimersParams) ([]storetype.Timer, error) {
	rows, err := dbsqlc.New(e.engine()).DueTimers(ctx, dbsqlc.DueTimersParams{Before: p.Before, Limit: int32(p.Limit)})
	return sqlfile.Convert(rows, err, func(r dbsqlc.DueTimersRow) (storetype.Timer, error) {
		return storetype.Timer{Kind: storetype.TimerKind(r.Kind), Due: r.DueAt}, nil
	})
}

// DeleteTimers removes the timers of kind p.Kind whose bucket ended by
// p.Through.
func (e *executor) DeleteTimers(ctx context.Context, p driver.DeleteTimersParams) error {
	return e.sq().DeleteTimers(ctx, dbsqlc.DeleteTimersParams{Kind: string(p.Kind), Through: p.Through.Add(-storetype.TimerBucket)})
}
