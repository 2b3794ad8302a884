package sqlfile

import (
	"time"

	"github.com/lapsehq/lapse/driver"
)

// Scanner is one row as database/sql and pgx hand it out.
type Scanner interface {
	Scan(dest ...any) error
}

// ScanReminder reads a planned reminder from the columns id, user_id,
// lead_ms (the lead in milliseconds), first_at, last_at and due_at, as
// the reminder queries of the SQL backends list them.
func ScanReminder(row Scanner) (driver.PlannedReminder, error) {
	var (
		r      driver.PlannedReminder
		leadMS int64
	)
	err := row.Scan(&r.ID, &r.UserID, &leadMS, &r.First, &r.Last, &r.Due)
	r.Lead = time.Duration(leadMS) * time.Millisecond
	return r, err
}
