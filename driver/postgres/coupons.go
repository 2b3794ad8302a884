package postgres

import (
	"context"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/storetype"
)

// UserCoupons reads a page of a user's wallet (see driver.Executor).
func (e *executor) UserCoupons(ctx context.Context, p storetype.UserCouponsParams) ([]coupon.Coupon, error) {
	name := "UserCoupons"
	if p.Archived {
		name = "UserCouponsWithArchived"
	}
	rows, err := e.query(ctx, name, p.UserID, p.After, p.StatusFilter(), p.Now, p.Limit)
	return sqlfile.Collect(rows, err, scanCoupon)
}

// TakeIssues counts p.N more coupons of a template issued, unless that
// passes its total.
func (e *executor) TakeIssues(ctx context.Context, p driver.TakeIssuesParams) (bool, error) {
	return e.execOne(ctx, "TakeIssues", p.TemplateID, p.N)
}

// Coupon reads one coupon, or one archived coupon. In a transaction it
// holds a stored coupon until the transaction ends: a racer waits here,
// then decides on what the winner left.
func (e *executor) Coupon(ctx context.Context, p driver.CouponParams) (coupon.Coupon, error) {
	name := e.pick("GetCoupon", "GetCouponForUpdate")
	if p.Archived {
		name = "GetArchivedCoupon"
	}
	return sqlfile.ScanOne(e.queryRow(ctx, name, p.ID), scanCoupon, interpret)
}

// SetCoupon stores p.Next over p.From with a compare-and-set on p.From's
// state and version.
func (e *executor) SetCoupon(ctx context.Context, p driver.SetCouponParams) (bool, error) {
	from, next := p.From, p.Next
	return e.execOne(ctx, "CompareAndSet", next.Status.String(), nullString(next.OrderID), nullTime(next.LockedUntil),
		next.UpdatedAt, from.ID, from.Status.String(), from.Version)
}

type scanner = sqlfile.Scanner

func scanCoupon(row scanner) (coupon.Coupon, error) {
	var (
		c           coupon.Coupon
		status      string
		orderID     *string
		lockedUntil *time.Time
	)
	err := row.Scan(&c.ID, &c.TemplateID, &c.UserID, &status, &c.ClaimedAt, &c.ExpiresAt, &orderID, &lockedUntil, &c.UpdatedAt, &c.Version)
	if err != nil {
		return c, err
	}
	if c.Status, err = coupon.ParseState(status); err != nil {
		return c, err
	}
	c.OrderID, c.LockedUntil = orZero(orderID), orZero(lockedUntil)
	return c, nil
}
