package sqlite

import (
	"context"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/storetype"
)

// Timers returns group timers due at or before p.Before.
func (e *executor) Timers(ctx context.Context, p storetype.TimersParams) ([]storetype.Timer, error) {
	rows, err := e.query(ctx, "DueTimers", ms(p.Before), p.Limit)
	return sqlfile.Collect(rows, err, func(row sqlfile.Scanner) (storetype.Timer, error) {
		var (
			kind string
			due  int64
		)
		err := row.Scan(&kind, &due)
		return storetype.Timer{Kind: storetype.TimerKind(kind), Due: at(due)}, err
	})
}

// DeleteTimers removes the timers of kind p.Kind whose bucket ended by
// p.Through.
func (e *executor) DeleteTimers(ctx context.Context, p driver.DeleteTimersParams) error {
	_, err := e.exec(ctx, "DeleteTimers", string(p.Kind), ms(p.Through.Add(-storetype.TimerBucket)))
	return err
}
