package mysql

import (
	"context"
	"time"

	"github.com/lapsehq/lapse/store"
)

// Timers returns group timers due at or before p.Before.
func (s *Driver) Timers(ctx context.Context, p store.TimersParams) ([]store.Timer, error) {
	rows, err := s.query(ctx, "DueTimers", p.Before, p.Limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.Timer
	for rows.Next() {
		var (
			kind string
			due  time.Time
		)
		if err := rows.Scan(&kind, &due); err != nil {
			return nil, err
		}
		out = append(out, store.Timer{Kind: store.TimerKind(kind), Due: due})
	}
	return out, rows.Err()
}

// DeleteTimers removes the timers of kind whose bucket ended by through.
func (t *tx) DeleteTimers(kind store.TimerKind, through time.Time) error {
	_, err := t.exec("DeleteTimers", string(kind), through.Add(-store.TimerBucket))
	return err
}
