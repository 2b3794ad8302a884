package sqlite

import (
	"context"
	"database/sql"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/storetype"
)

// Coupon reads one coupon, or one archived coupon; in a transaction the
// one writer holds it until the commit.
func (e *executor) Coupon(ctx context.Context, p driver.CouponParams) (coupon.Coupon, error) {
	name := orArchive(p.Archived, "GetCoupon", "GetArchivedCoupon")
	return sqlfile.ScanOne(e.queryRow(ctx, name, p.ID), scanCoupon, interpret)
}

// UserCoupons reads a page of a user's wallet (see driver.Executor).
func (e *executor) UserCoupons(ctx context.Context, p storetype.UserCouponsParams) ([]coupon.Coupon, error) {
	name := orArchive(p.Archived, "UserCoupons", "UserCouponsWithArchived")
	rows, err := e.query(ctx, name, p.UserID, p.After, p.StatusFilter(), ms(p.Now), p.Limit)
	return sqlfile.Collect(rows, err, scanCoupon)
}

// TakeIssues counts p.N more coupons of a template issued, unless that
// passes its total.
func (e *executor) TakeIssues(ctx context.Context, p driver.TakeIssuesParams) (bool, error) {
	return e.execOne(ctx, "TakeIssues", p.TemplateID, p.N)
}

// SetCoupon stores p.Next over p.From with a compare-and-set on p.From's
// state and version.
func (e *executor) SetCoupon(ctx context.Context, p driver.SetCouponParams) (bool, error) {
	from, next := p.From, p.Next
	return e.execOne(ctx, "CompareAndSet", next.Status.String(), nullString(next.OrderID), nullMS(next.LockedUntil),
		ms(next.UpdatedAt), from.ID, from.Status.String(), from.Version)
}

func scanCoupon(row scanner) (coupon.Coupon, error) {
	var (
		c                               coupon.Coupon
		status                          string
		claimedAt, expiresAt, updatedAt int64
		orderID                         sql.NullString
		lockedUntil                     sql.NullInt64
	)
	err := row.Scan(&c.ID, &c.TemplateID, &c.UserID, &status, &claimedAt, &expiresAt, &orderID, &lockedUntil, &updatedAt, &c.Version)
	if err != nil {
		return c, err
	}
	if c.Status, err = coupon.ParseState(status); err != nil {
		return c, err
	}
	c.ClaimedAt, c.ExpiresAt, c.UpdatedAt = at(claimedAt), at(expiresAt), at(updatedAt)
	c.OrderID, c.LockedUntil = orderID.String, atNull(lockedUntil)
	return c, nil
}
