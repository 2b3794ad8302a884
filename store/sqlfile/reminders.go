package sqlfile

import (
	"time"

	"github.com/lapsehq/lapse/store"
)

// Scanner is one row as database/sql and pgx hand it out.
type Scanner interface {
	Scan(dest ...any) error
}

// ScanReminder reads a planned reminder from the columns id, user_id,
// lead_ms (the lead in milliseconds), first_at, last_at and due_at, as
// the reminder queries of the SQL backends list them.
func ScanReminder(row Scanner) (store.PlannedReminder, error) {
	var (
		r      store.PlannedReminder
		leadMS int64
	)
	err := row.Scan(&r.ID, &r.UserID, &leadMS, &r.First, &r.Last, &r.Due)
	r.Lead = time.Duration(leadMS) * time.Millisecond
	return r, err
}

// WithMore is a row whose columns past those a Scan asks for go into
// More: a shared scan function (a coupon's, say) reads the first columns
// of a query that lists more.
type WithMore struct {
	Row  Scanner
	More []any
}

// Scan reads the row into dest, then More.
func (w WithMore) Scan(dest ...any) error { return w.Row.Scan(append(dest, w.More...)...) }
