package sqlite

import (
	"context"
	"time"

	"github.com/lapsehq/lapse/store"
)

// Timers returns group timers due at or before p.Before.
func (s *Driver) Timers(ctx context.Context, p store.TimersParams) ([]store.Timer, error) {
	rows, err := s.read(ctx, "DueTimers", ms(p.Before), p.Limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.Timer
	for rows.Next() {
		var (
			kind string
			due  int64
		)
		if err := rows.Scan(&kind, &due); err != nil {
			return nil, err
		}
		out = append(out, store.Timer{Kind: store.TimerKind(kind), Due: at(due)})
	}
	return out, rows.Err()
}

// DeleteTimers removes the timers of kind whose bucket ended by through.
func (t *tx) DeleteTimers(kind store.TimerKind, through time.Time) error {
	_, err := t.exec("DeleteTimers", string(kind), ms(through.Add(-store.TimerBucket)))
	return err
}
