package postgres

import (
	"context"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/storetype"
)

// Coupon returns one coupon as stored.
func (s *Driver) Coupon(ctx context.Context, id string) (coupon.Coupon, error) {
	return sqlfile.ScanOne(s.readRow(ctx, "GetCoupon", id), scanCoupon, interpret)
}

// UserCoupons reads a page of a user's wallet (see store.Driver).
func (s *Driver) UserCoupons(ctx context.Context, p storetype.UserCouponsParams) ([]coupon.Coupon, error) {
	name := "UserCoupons"
	if p.Archived {
		name = "UserCouponsWithArchived"
	}
	rows, err := s.read(ctx, name, p.UserID, p.After, p.StatusFilter(), p.Now, p.Limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []coupon.Coupon{}
	for rows.Next() {
		c, err := scanCoupon(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// CountUserCoupons counts a user's coupons of a template.
func (t *tx) CountUserCoupons(userID, templateID string) (int64, error) {
	return sqlfile.ScanInt64(t.queryRow("CountUserTemplate", userID, templateID))
}

// TakeIssues counts n more coupons of a template issued, unless that
// passes its total.
func (t *tx) TakeIssues(templateID string, n int64) (bool, error) {
	return t.execOne("TakeIssues", templateID, n)
}

// Coupon reads one coupon and holds it until the transaction ends: a
// racer waits here, then decides on what the winner left.
func (t *tx) Coupon(id string) (coupon.Coupon, error) {
	return sqlfile.ScanOne(t.queryRow("GetCouponForUpdate", id), scanCoupon, interpret)
}

// SetCoupon stores next over from with a compare-and-set on from's state
// and version.
func (t *tx) SetCoupon(from, next coupon.Coupon) (bool, error) {
	return t.execOne("CompareAndSet", next.Status.String(), nullString(next.OrderID), nullTime(next.LockedUntil),
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
