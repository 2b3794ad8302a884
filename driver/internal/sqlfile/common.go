package sqlfile

import (
	"context"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/storetype"
)

// Common is the statements every SQL driver runs alike, with the same
// named query and arguments on each store, written once: an executor
// embeds it (see NewCommon), and its methods are the executor's.
type Common struct {
	exec     func(ctx context.Context, name string, args ...any) error
	query    func(ctx context.Context, name string, args ...any) (Rows, error)
	queryRow func(ctx context.Context, name string, args ...any) Scanner
	// scanCoupon and scanOrder read a coupon and an order from the
	// first columns of a row, as the driver stores them.
	scanCoupon func(Scanner) (coupon.Coupon, error)
	scanOrder  func(Scanner) (order.Order, error)
}

// NewCommon returns the Common statements run with a driver executor's
// exec, query and queryRow, which run a named query (queries.Get) where
// the executor runs them: in its transaction, or outside one; scanCoupon
// and scanOrder are the driver's scans of a coupon's and an order's
// columns.
func NewCommon[X any, R Rows, S Scanner](
	exec func(ctx context.Context, name string, args ...any) (X, error),
	query func(ctx context.Context, name string, args ...any) (R, error),
	queryRow func(ctx context.Context, name string, args ...any) S,
	scanCoupon func(Scanner) (coupon.Coupon, error),
	scanOrder func(Scanner) (order.Order, error),
) Common {
	return Common{
		exec: func(ctx context.Context, name string, args ...any) error {
			_, err := exec(ctx, name, args...)
			return err
		},
		query: func(ctx context.Context, name string, args ...any) (Rows, error) {
			return query(ctx, name, args...)
		},
		queryRow: func(ctx context.Context, name string, args ...any) Scanner {
			return queryRow(ctx, name, args...)
		},
		scanCoupon: scanCoupon,
		scanOrder:  scanOrder,
	}
}

// SeenInstance records that p.Holder is alive now and, if p.Measured,
// its clock skew p.Skew.
func (c Common) SeenInstance(ctx context.Context, p driver.SeenInstanceParams) error {
	if p.Measured {
		return c.exec(ctx, "MeasuredSkew", p.Holder, p.Skew.Milliseconds())
	}
	return c.exec(ctx, "SeenInstance", p.Holder)
}

// ReminderCoupons reads the coupons planned reminder id lists, as they are
// now, earliest expires_at first, then by ID.
func (c Common) ReminderCoupons(ctx context.Context, id int64) ([]driver.ReminderCoupon, error) {
	rows, err := c.query(ctx, "ReminderCoupons", id)
	return Collect(rows, err, ScanReminderCoupon(c.scanCoupon))
}

// SinkState reads a sink's position, lag and dead-letter counts.
func (c Common) SinkState(ctx context.Context, sink string) (storetype.SinkState, error) {
	var st storetype.SinkState
	err := c.queryRow(ctx, "SinkState", sink).Scan(&st.Position, &st.Lag, &st.DeadLetters, &st.Queued)
	return st, err
}

// SharedQueries names the queries sqlfile runs by name, those of the
// Common statements and of AdvanceSink: each driver has them all in its
// queries.
var SharedQueries = []string{
	"MeasuredSkew", "SeenInstance", "ReminderCoupons",
	"SinkState", "AdvanceSink", "PutDeadLetter", "DeleteDeadLetter",
}
