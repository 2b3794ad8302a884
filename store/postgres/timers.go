package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/lapsehq/lapse/store"
)

// Timers returns group timers due at or before p.Before.
func (s *Store) Timers(ctx context.Context, p store.TimersParams) ([]store.Timer, error) {
	rows, err := s.read(ctx, "DueTimers", p.Before, p.Limit)
	if err != nil {
		return nil, err
	}
	var (
		out []store.Timer
		tm  store.Timer
	)
	_, err = pgx.ForEachRow(rows, []any{&tm.Kind, &tm.Due}, func() error {
		out = append(out, tm)
		return nil
	})
	return out, err
}

// DeleteTimers removes the timers of p.Kind whose bucket ended by p.Through.
func (s *Store) DeleteTimers(ctx context.Context, p store.DeleteTimersParams) error {
	_, err := inTx(ctx, s, func(t *tx) (struct{}, error) {
		_, err := t.exec("DeleteTimers", string(p.Kind), p.Through.Add(-store.TimerBucket))
		return struct{}{}, err
	})
	return err
}
