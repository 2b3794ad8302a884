package mysql

import (
	"context"
	"database/sql"
	"slices"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/storetype"
)

// Coupon returns one coupon as stored.
func (s *Driver) Coupon(ctx context.Context, id string) (coupon.Coupon, error) {
	return sqlfile.ScanOne(s.queryRow(ctx, "GetCoupon", id), scanCoupon, interpret)
}

// UserCoupons reads a page of a user's wallet (see store.Driver).
func (s *Driver) UserCoupons(ctx context.Context, p storetype.UserCouponsParams) ([]coupon.Coupon, error) {
	page := []any{p.UserID, p.After, p.StatusFilter(), p.Now, p.StatusFilter(), p.Limit}
	name, args := "UserCoupons", page
	if p.Archived { // a page of each table, then the limit of the two
		name, args = "UserCouponsWithArchived", slices.Concat(page, page, []any{p.Limit})
	}
	rows, err := s.query(ctx, name, args...)
	return sqlfile.Collect(rows, err, scanCoupon)
}

// CountUserCoupons counts a user's coupons of a template.
func (t *tx) CountUserCoupons(userID, templateID string) (int64, error) {
	return sqlfile.ScanInt64(t.queryRow("CountUserTemplate", userID, templateID, userID, templateID))
}

// TakeIssues counts n more coupons of a template issued, unless that
// passes its total.
func (t *tx) TakeIssues(templateID string, n int64) (bool, error) {
	return t.execOne("TakeIssues", n, templateID, n)
}

// Coupon reads one coupon and holds its row until the transaction ends.
func (t *tx) Coupon(id string) (coupon.Coupon, error) {
	return sqlfile.ScanOne(t.queryRow("LockCoupon", id), scanCoupon, interpret)
}

// SetCoupon stores next over from with a compare-and-set on from's state
// and version.
func (t *tx) SetCoupon(from, next coupon.Coupon) (bool, error) {
	return t.execOne("CompareAndSet", next.Status.String(), nullString(next.OrderID), nullTime(next.LockedUntil),
		next.UpdatedAt, from.ID, from.Status.String(), from.Version)
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
