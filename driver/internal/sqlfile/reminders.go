package sqlfile

import (
	"time"

	"github.com/lapsehq/lapse/coupon"
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

// ScanReminderCoupon returns the scan of a ReminderCoupons row: the
// coupon, read by the driver's scanCoupon from the row's first columns,
// then the template's value, whether the lead is the template's last, and
// whether the pair was reminded.
func ScanReminderCoupon(scanCoupon func(Scanner) (coupon.Coupon, error)) func(Scanner) (driver.ReminderCoupon, error) {
	return func(row Scanner) (driver.ReminderCoupon, error) {
		var rc driver.ReminderCoupon
		c, err := scanCoupon(withMore{row, []any{&rc.Value, &rc.LastLead, &rc.Reminded}})
		rc.Coupon = c
		return rc, err
	}
}

// withMore is a row whose columns past those a Scan asks for go into
// more: a shared scan function (a coupon's) reads the first columns of a
// query that lists more.
type withMore struct {
	row  Scanner
	more []any
}

// Scan reads the row into dest, then more.
func (w withMore) Scan(dest ...any) error { return w.row.Scan(append(dest, w.more...)...) }
