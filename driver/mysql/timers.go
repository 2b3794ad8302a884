package mysql

import (
	"context"
	"time"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/storetype"
)

// Timers returns group timers due at or before p.Before, outside a
// transaction on the engine pool: the engine loads them.
func (e *executor) Timers(ctx context.Context, p storetype.TimersParams) ([]storetype.Timer, error) {
	rows, err := e.engine().QueryContext(ctx, queries.Get("DueTimers"), p.Before, p.Limit)
	return sqlfile.Collect(rows, err, func(row sqlfile.Scanner) (storetype.Timer, error) {
		var (
			kind string
			due  time.Time
		)
		err := row.Scan(&kind, &due)
		return storetype.Timer{Kind: storetype.TimerKind(kind), Due: due}, err
	})
}

// DeleteTimers removes the timers of kind p.Kind whose bucket ended by
// p.Through.
func (e *executor) DeleteTimers(ctx context.Context, p driver.DeleteTimersParams) error {
	_, err := e.exec(ctx, "DeleteTimers", string(p.Kind), p.Through.Add(-storetype.TimerBucket))
	return err
}
