package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/lapsehq/lapse/store"
)

// Events returns up to p.Limit events after the cursor p.After.
func (s *Store) Events(ctx context.Context, p store.EventsParams) ([]store.Event, error) {
	rows, err := s.read(ctx, "EventsAfter", p.After, p.Limit)
	if err != nil {
		return nil, err
	}
	out := []store.Event{}
	var e store.Event
	_, err = pgx.ForEachRow(rows, []any{&e.Seq, &e.ID, &e.Type, &e.Subject, &e.Time, &e.Data}, func() error {
		out = append(out, e)
		return nil
	})
	return out, err
}
