package sqlite

import (
	"context"

	"github.com/lapsehq/lapse/store"
)

// Timers returns group timers due at or before p.Before.
func (s *Store) Timers(ctx context.Context, p store.TimersParams) ([]store.Timer, error) {
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

// DeleteTimers removes the timers of p.Kind whose bucket ended by p.Through.
func (s *Store) DeleteTimers(ctx context.Context, p store.DeleteTimersParams) error {
	_, err := backgroundTx(ctx, s, func(t *tx) (struct{}, error) {
		_, err := t.exec("DeleteTimers", string(p.Kind), ms(p.Through.Add(-store.TimerBucket)))
		return struct{}{}, err
	})
	return err
}
