package mysql

import (
	"context"
	"database/sql"
	"slices"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/mysql/internal/dbsqlc"
	"github.com/lapsehq/lapse/storetype"
)

// Coupon reads one coupon, holding its row in a transaction until it
// ends, or with p.Archived one archived coupon.
func (e *executor) Coupon(ctx context.Context, p driver.CouponParams) (coupon.Coupon, error) {
	name := e.holding("LockCoupon", "GetCoupon")
	if p.Archived {
		name = "GetArchivedCoupon"
	}
	return sqlfile.ScanOne(e.queryRow(ctx, name, p.ID), scanCoupon, interpret)
}

// UserCoupons reads a page of a user's wallet (see driver.Executor).
func (e *executor) UserCoupons(ctx context.Context, p storetype.UserCouponsParams) ([]coupon.Coupon, error) {
	page := []any{p.UserID, p.After, p.StatusFilter(), p.Now, p.StatusFilter(), p.Limit}
	name, args := "UserCoupons", page
	if p.Archived { // a page of each table, then the limit of the two
		name, args = "UserCouponsWithArchived", slices.Concat(page, page, []any{p.Limit})
	}
	rows, err := e.query(ctx, name, args...)
	return sqlfile.Collect(rows, err, scanCoupon)
}

// TakeIssues counts p.N more coupons of a template issued, unless that
// passes its total.
func (e *executor) TakeIssues(ctx context.Context, p driver.TakeIssuesParams) (bool, error) {
	n, err := e.sq().TakeIssues(ctx, dbsqlc.TakeIssuesParams{N: int64(p.N), ID: p.TemplateID})
	return n > 0, err
}

// SetCoupon stores p.Next over p.From with a compare-and-set on p.From's
// state and version.
func (e *executor) SetCoupon(ctx context.Context, p driver.SetCouponParams) (bool, error) {
	from, next := p.From, p.Next
	n, err := e.sq().CompareAndSet(ctx, dbsqlc.CompareAndSetParams{
		Status: next.Status.String(), OrderID: nullString(next.OrderID), LockedUntil: nullTime(next.LockedUntil),
		UpdatedAt: next.UpdatedAt, ID: from.ID, FromStatus: from.Status.String(), Version: from.Version,
	})
	return n > 0, err
}

func scanCoupon(row scanner) (coupon.Coupon, error) {
	var (
		c           coupon.Coupon
		status      string
		orderID     sql.NullString
		lockedUntil sql.NullTime
	)
	err := row.Scan(&c.ID, &c.TemplateID, &c.UserID, &status, &c.ClaimedAt, &c.ExpiresAt, &orderID, &lockedUntil, &c.UpdatedAt, &c.Version)
	if err != nil {
		return c, err
	}
	if c.Status, err = coupon.ParseState(status); err != nil {
		return c, err
	}
	c.OrderID, c.LockedUntil = orderID.String, utc(lockedUntil)
	return c, nil
}
