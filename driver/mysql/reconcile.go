package mysql

import (
	"context"
	"database/sql"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/storetype"
)

// StockPage reads the sums of a page of SKUs, by SKU.
func (s *Driver) StockPage(ctx context.Context, p driver.PageParams) ([]driver.StockSum, error) {
	rows, err := s.query(ctx, "StockPage", p.After, p.Limit)
	return sqlfile.Collect(rows, err, sqlfile.ScanStockSum)
}

// OpenOrderPage reads a page of unpaid orders, by deadline and ID.
func (s *Driver) OpenOrderPage(ctx context.Context, p driver.PageParams) ([]order.Order, error) {
	rows, err := s.query(ctx, "OpenOrderPage", p.At, p.At, p.After, p.Limit)
	return sqlfile.Collect(rows, err, scanOrder)
}

// FinishedOrderPage reads a page of paid and closed orders, by ID.
func (s *Driver) FinishedOrderPage(ctx context.Context, p driver.PageParams) ([]order.Order, error) {
	rows, err := s.query(ctx, "FinishedOrderPage", p.After, p.Limit)
	return sqlfile.Collect(rows, err, scanOrder)
}

// LockedPage reads a page of locked coupons, by locked_until and ID.
func (s *Driver) LockedPage(ctx context.Context, p driver.PageParams) ([]coupon.Coupon, error) {
	rows, err := s.query(ctx, "LockedPage", p.At, p.At, p.After, p.Limit)
	return sqlfile.Collect(rows, err, scanCoupon)
}

// pendingFrom names the query of PendingFrom per kind.
var pendingFrom = map[storetype.TimerKind]string{storetype.TimerExpire: "ExpiryFrom", storetype.TimerRelease: "ReleaseFrom"}

// PendingFrom reads the earliest due time at or after from of kind's
// pending coupons.
func (s *Driver) PendingFrom(ctx context.Context, kind storetype.TimerKind, from time.Time) (time.Time, error) {
	var due sql.NullTime
	if err := s.queryRow(ctx, pendingFrom[kind], from).Scan(&due); err != nil || !due.Valid {
		return time.Time{}, err
	}
	return due.Time.UTC(), nil
}

// HasTimer reports whether the group timer tm is stored.
func (s *Driver) HasTimer(ctx context.Context, tm storetype.Timer) (bool, error) {
	var ok bool
	err := s.queryRow(ctx, "HasTimer", tm.Due, string(tm.Kind)).Scan(&ok)
	return ok, err
}
