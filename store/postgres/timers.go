package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lapsehq/lapse/store"
)

// Timers returns group timers due at or before p.Before, on the engine
// pool: the engine loads them.
func (s *Driver) Timers(ctx context.Context, p store.TimersParams) ([]store.Timer, error) {
	rows, err := s.engineRead(ctx, "DueTimers", p.Before, p.Limit)
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

// DeleteTimers removes the timers of kind whose bucket ended by through.
func (t *tx) DeleteTimers(kind store.TimerKind, through time.Time) error {
	_, err := t.exec("DeleteTimers", string(kind), through.Add(-store.TimerBucket))
	return err
}
