package sqlite

import (
	"context"

	"github.com/lapsehq/lapse/store"
)

// Events returns up to p.Limit events after the cursor p.After.
func (s *Driver) Events(ctx context.Context, p store.EventsParams) ([]store.Event, error) {
	rows, err := s.read(ctx, "EventsAfter", p.After, p.Limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out, size := []store.Event{}, 0
	for !p.Full(size) && rows.Next() {
		var (
			e    store.Event
			t    int64
			data string
		)
		if err := rows.Scan(&e.Seq, &e.ID, &e.Type, &e.Subject, &t, &data); err != nil {
			return nil, err
		}
		e.Time, e.Data = at(t), []byte(data)
		out, size = append(out, e), size+len(data)
	}
	return out, rows.Err()
}
