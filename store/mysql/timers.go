package mysql

import (
	"context"
	"time"

	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/store/sqlfile"
)

// Timers returns group timers due at or before p.Before, on the engine
// pool: the engine loads them.
func (s *Driver) Timers(ctx context.Context, p store.TimersParams) ([]store.Timer, error) {
	rows, err := s.engineQuery(ctx, "DueTimers", p.Before, p.Limit)
	return sqlfile.Collect(rows, err, func(row sqlfile.Scanner) (store.Timer, error) {
		var (
			kind string
			due  time.Time
		)
		err := row.Scan(&kind, &due)
		return store.Timer{Kind: store.TimerKind(kind), Due: due}, err
	})
}

// DeleteTimers removes the timers of kind whose bucket ended by through.
func (t *tx) DeleteTimers(kind store.TimerKind, through time.Time) error {
	_, err := t.exec("DeleteTimers", string(kind), through.Add(-store.TimerBucket))
	return err
}
