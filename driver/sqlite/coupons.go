package sqlite

import (
	"context"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/sqlite/internal/dbsqlc"
	"github.com/lapsehq/lapse/storetype"
)

// Coupon reads one coupon, or one archived coupon; in a transaction the
// one writer holds it until the commit.
func (e *executor) Coupon(ctx context.Context, p driver.CouponParams) (coupon.Coupon, error) {
	if p.Archived {
		r, err := e.q().GetArchivedCoupon(ctx, p.ID)
		return sqlfile.ConvertOne(r, err, couponOf, interpret)
	}
	r, err := e.q().GetCoupon(ctx, p.ID)
	return sqlfile.ConvertOne(r, err, couponOf, interpret)
}

// UserCoupons reads a page of a user's wallet (see driver.Executor).
func (e *executor) UserCoupons(ctx context.Context, p storetype.UserCouponsParams) ([]coupon.Coupon, error) {
	if p.Archived {
		rows, err := e.q().UserCouponsWithArchived(ctx, dbsqlc.UserCouponsWithArchivedParams{
			UserID: p.UserID, After: p.After, Status: p.StatusFilter(), Now: ms(p.Now), PageSize: int64(p.Limit),
		})
		return sqlfile.Convert(rows, err, couponOf)
	}
	rows, err := e.q().UserCoupons(ctx, dbsqlc.UserCouponsParams{
		UserID: p.UserID, After: p.After, Status: p.StatusFilter(), Now: ms(p.Now), PageSize: int64(p.Limit),
	})
	return sqlfile.Convert(rows, err, couponOf)
}

// TakeIssues counts p.N more coupons of a template issued, unless that
// passes its total.
func (e *executor) TakeIssues(ctx context.Context, p driver.TakeIssuesParams) (bool, error) {
	n, err := e.q().TakeIssues(ctx, dbsqlc.TakeIssuesParams{ID: p.TemplateID, N: p.N})
	return n > 0, err
}

// SetCoupon stores p.Next over p.From with a compare-and-set on p.From's
// state and version.
func (e *executor) SetCoupon(ctx context.Context, p driver.SetCouponParams) (bool, error) {
	from, next := p.From, p.Next
	n, err := e.q().CompareAndSet(ctx, dbsqlc.CompareAndSetParams{
		Status: next.Status.String(), OrderID: nullString(next.OrderID), LockedUntil: nullMS(next.LockedUntil),
		UpdatedAt: ms(next.UpdatedAt), ID: from.ID, FromStatus: from.Status.String(), Version: from.Version,
	})
	return n > 0, err
}

// couponOf is a coupon as stored, its columns as sqlc reads them, from
// the table or its archive.
func couponOf[R dbsqlc.Coupon | dbsqlc.GetArchivedCouponRow](row R) (coupon.Coupon, error) {
	r := dbsqlc.Coupon(row)
	c := coupon.Coupon{
		ID: r.ID, TemplateID: r.TemplateID, UserID: r.UserID, ClaimedAt: at(r.ClaimedAt), ExpiresAt: at(r.ExpiresAt),
		OrderID: r.OrderID.String, LockedUntil: atNull(r.LockedUntil), UpdatedAt: at(r.UpdatedAt), Version: r.Version,
	}
	var err error
	c.Status, err = coupon.ParseState(r.Status)
	return c, err
}

// LockCoupons reads the listed coupons, by ID (the one writer holds
// them).
func (e *executor) LockCoupons(ctx context.Context, ids []string) ([]coupon.Coupon, error) {
	rows, err := e.q().LockCoupons(ctx, jsonList(ids))
	return sqlfile.Convert(rows, err, couponOf)
}

// UnlockCoupons gives back the listed coupons still locked, to p.To.
func (e *executor) UnlockCoupons(ctx context.Context, p driver.UnlockCouponsParams) (int64, error) {
	return e.q().UnlockCoupons(ctx, dbsqlc.UnlockCouponsParams{Status: p.To.String(), UpdatedAt: ms(p.Now), Ids: jsonList(p.IDs)})
}
