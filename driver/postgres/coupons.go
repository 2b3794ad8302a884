package postgres

import (
	"context"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/postgres/internal/dbsqlc"
	"github.com/lapsehq/lapse/storetype"
)

// UserCoupons reads a page of a user's wallet (see driver.Executor).
func (e *executor) UserCoupons(ctx context.Context, p storetype.UserCouponsParams) ([]coupon.Coupon, error) {
	if p.Archived {
		rows, err := e.sqlc().UserCouponsWithArchived(ctx, dbsqlc.UserCouponsWithArchivedParams{
			UserID: p.UserID, After: p.After, Status: p.StatusFilter(), Now: p.Now, PageSize: int32(p.Limit),
		})
		return sqlfile.Convert(rows, err, storedCoupon)
	}
	rows, err := e.sqlc().UserCoupons(ctx, dbsqlc.UserCouponsParams{
		UserID: p.UserID, After: p.After, Status: p.StatusFilter(), Now: p.Now, PageSize: int32(p.Limit),
	})
	return sqlfile.Convert(rows, err, storedCoupon)
}

// TakeIssues counts p.N more coupons of a template issued, unless that
// passes its total.
func (e *executor) TakeIssues(ctx context.Context, p driver.TakeIssuesParams) (bool, error) {
	n, err := e.sqlc().TakeIssues(ctx, dbsqlc.TakeIssuesParams{ID: p.TemplateID, N: p.N})
	return n > 0, err
}

// Coupon reads one coupon, or one archived coupon. In a transaction it
// holds a stored coupon until the transaction ends: a racer waits here,
// then decides on what the winner left.
func (e *executor) Coupon(ctx context.Context, p driver.CouponParams) (coupon.Coupon, error) {
	switch {
	case p.Archived:
		r, err := e.sqlc().GetArchivedCoupon(ctx, p.ID)
		return sqlfile.ConvertOne(r, err, storedCoupon, interpret)
	case e.tx != nil:
		r, err := e.sqlc().GetCouponForUpdate(ctx, p.ID)
		return sqlfile.ConvertOne(r, err, storedCoupon, interpret)
	}
	r, err := e.sqlc().GetCoupon(ctx, p.ID)
	return sqlfile.ConvertOne(r, err, storedCoupon, interpret)
}

// SetCoupon stores p.Next over p.From with a compare-and-set on p.From's
// state and version.
func (e *executor) SetCoupon(ctx context.Context, p driver.SetCouponParams) (bool, error) {
	from, next := p.From, p.Next
	n, err := e.sqlc().CompareAndSet(ctx, dbsqlc.CompareAndSetParams{
		Status: next.Status.String(), OrderID: nullString(next.OrderID), LockedUntil: nullTime(next.LockedUntil),
		UpdatedAt: next.UpdatedAt, ID: from.ID, FromStatus: from.Status.String(), FromVersion: from.Version,
	})
	return n > 0, err
}

// couponRow is the rows of the sqlc queries that read a coupon: each has
// GetCoupon's columns.
type couponRow interface {
	dbsqlc.GetCouponRow | dbsqlc.GetArchivedCouponRow | dbsqlc.GetCouponForUpdateRow | dbsqlc.UserCouponsRow |
		dbsqlc.CouponsAfterRow | dbsqlc.UsersCouponsRow | dbsqlc.LockedPageRow | dbsqlc.LockCouponsRow | dbsqlc.LocksDueRow |
		dbsqlc.UserCouponsWithArchivedRow
}

// storedCoupon is a coupon row as the driver hands it out.
func storedCoupon[R couponRow](row R) (coupon.Coupon, error) {
	r := dbsqlc.GetCouponRow(row)
	status, err := coupon.ParseState(r.Status)
	if err != nil {
		return coupon.Coupon{}, err
	}
	return coupon.Coupon{
		ID: r.ID, TemplateID: r.TemplateID, UserID: r.UserID, Status: status, ClaimedAt: r.ClaimedAt,
		ExpiresAt: r.ExpiresAt, OrderID: orZero(r.OrderID), LockedUntil: orZero(r.LockedUntil),
		UpdatedAt: r.UpdatedAt, Version: r.Version,
	}, nil
}

// LockCoupons reads the listed coupons, by ID, holding them.
func (e *executor) LockCoupons(ctx context.Context, ids []string) ([]coupon.Coupon, error) {
	rows, err := e.sqlc().LockCoupons(ctx, ids)
	return sqlfile.Convert(rows, err, storedCoupon)
}

// UnlockCoupons gives back the listed coupons still locked, to p.To.
func (e *executor) UnlockCoupons(ctx context.Context, p driver.UnlockCouponsParams) (int64, error) {
	return e.sqlc().UnlockCoupons(ctx, dbsqlc.UnlockCouponsParams{Ids: p.IDs, Status: p.To.String(), Now: p.Now})
}
