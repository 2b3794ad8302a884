package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/lapsehq/lapse/storetype"
)

// Timers returns group timers due at or before p.Before, on the engine
// pool: the engine loads them.
func (s *Driver) Timers(ctx context.Context, p storetype.TimersParams) ([]storetype.Timer, error) {
	rows, err := s.engineRead(ctx, "DueTimers", p.Before, p.Limit)
	if err != nil {
		return nil, err
	}
	var (
		out []storetype.Timer
		tm  storetype.Timer
	)
	_, err = pgx.ForEachRow(rows, []any{&tm.Kind, &tm.Due}, func() error {
		out = append(out, tm)
		return nil
	})
	return out, err
}

// DeleteTimers removes the timers of kind whose bucket ended by through.
func (t *tx) DeleteTimers(kind storetype.TimerKind, through time.Time) error {
	_, err := t.exec("DeleteTimers", string(kind), through.Add(-storetype.TimerBucket))
	return err
}
