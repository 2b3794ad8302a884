package mysql

import (
	"context"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/mysql/internal/dbsqlc"
	"github.com/lapsehq/lapse/storetype"
)

// Coupon reads one coupon, holding its row in a transaction until it
// ends, or with p.Archived one archived coupon.
func (e *executor) Coupon(ctx context.Context, p driver.CouponParams) (coupon.Coupon, error) {
	switch {
	case p.Archived:
		r, err := e.sq().GetArchivedCoupon(ctx, p.ID)
		return sqlfile.ConvertOne(r, err, storedCoupon, interpret)
	case e.tx != nil:
		r, err := e.sq().LockCoupon(ctx, p.ID)
		return sqlfile.ConvertOne(r, err, storedCoupon, interpret)
	}
	r, err := e.sq().GetCoupon(ctx, p.ID)
	return sqlfile.ConvertOne(r, err, storedCoupon, interpret)
}

// UserCoupons reads a page of a user's wallet (see driver.Executor).
func (e *executor) UserCoupons(ctx context.Context, p storetype.UserCouponsParams) ([]coupon.Coupon, error) {
	if p.Archived { // a page of each table, then the limit of the two
		lim := int32(p.Limit)
		rows, err := e.sq().UserCouponsWithArchived(ctx, dbsqlc.UserCouponsWithArchivedParams{
			UserID: p.UserID, After: p.After, Status: p.StatusFilter(), Now: p.Now, Limit: lim, Limit_2: lim, Limit_3: lim,
		})
		return sqlfile.Convert(rows, err, storedCoupon)
	}
	rows, err := e.sq().UserCoupons(ctx, dbsqlc.UserCouponsParams{
		UserID: p.UserID, After: p.After, Status: p.StatusFilter(), Now: p.Now, Limit: int32(p.Limit),
	})
	return sqlfile.Convert(rows, err, storedCoupon)
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

// couponRow is the rows of the sqlc queries that read a coupon: each has
// GetCoupon's columns.
type couponRow interface {
	dbsqlc.GetCouponRow | dbsqlc.GetArchivedCouponRow | dbsqlc.LockCouponRow | dbsqlc.UserCouponsRow |
		dbsqlc.CouponsAfterRow | dbsqlc.LockedPageRow | dbsqlc.LockCouponsRow | dbsqlc.UsersCouponsRow |
		dbsqlc.UserCouponsWithArchivedRow | dbsqlc.ClaimLocksRow
}

// storedCoupon is a coupon row as the driver hands it out.
func storedCoupon[R couponRow](row R) (coupon.Coupon, error) {
	r := dbsqlc.GetCouponRow(row)
	status, err := coupon.ParseState(r.Status)
	return coupon.Coupon{
		ID: r.ID, TemplateID: r.TemplateID, UserID: r.UserID, Status: status, ClaimedAt: r.ClaimedAt,
		ExpiresAt: r.ExpiresAt, OrderID: r.OrderID.String, LockedUntil: utc(r.LockedUntil),
		UpdatedAt: r.UpdatedAt, Version: r.Version,
	}, err
}

// LockCoupons reads the listed coupons, by ID, holding them.
func (e *executor) LockCoupons(ctx context.Context, ids []string) ([]coupon.Coupon, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	rows, err := e.sq().LockCoupons(ctx, ids)
	return sqlfile.Convert(rows, err, storedCoupon)
}

// UnlockCoupons gives back the listed coupons still locked, to p.To.
func (e *executor) UnlockCoupons(ctx context.Context, p driver.UnlockCouponsParams) (int64, error) {
	if len(p.IDs) == 0 {
		return 0, nil
	}
	return e.sq().UnlockCoupons(ctx, dbsqlc.UnlockCouponsParams{Status: p.To.String(), UpdatedAt: p.Now, Ids: p.IDs})
}
