package sqlite

import (
	"context"
	"time"

	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/storetype"
)

// Timers returns group timers due at or before p.Before.
func (s *Driver) Timers(ctx context.Context, p storetype.TimersParams) ([]storetype.Timer, error) {
	rows, err := s.read(ctx, "DueTimers", ms(p.Before), p.Limit)
	return sqlfile.Collect(rows, err, func(row sqlfile.Scanner) (storetype.Timer, error) {
		var (
			kind string
			due  int64
		)
		err := row.Scan(&kind, &due)
		return storetype.Timer{Kind: storetype.TimerKind(kind), Due: at(due)}, err
	})
}

// DeleteTimers removes the timers of kind whose bucket ended by through.
func (t *tx) DeleteTimers(kind storetype.TimerKind, through time.Time) error {
	_, err := t.exec("DeleteTimers", string(kind), ms(through.Add(-storetype.TimerBucket)))
	return err
}
