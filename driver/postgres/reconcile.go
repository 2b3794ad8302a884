package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/storetype"
)

// StockPage reads the sums of a page of SKUs, by SKU.
func (s *Driver) StockPage(ctx context.Context, p driver.PageParams) ([]driver.StockSum, error) {
	rows, err := s.read(ctx, "StockPage", p.After, p.Limit)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (driver.StockSum, error) { return sqlfile.ScanStockSum(row) })
}

// OpenOrderPage reads a page of unpaid orders, by deadline and ID.
func (s *Driver) OpenOrderPage(ctx context.Context, p driver.PageParams) ([]order.Order, error) {
	rows, err := s.read(ctx, "OpenOrderPage", p.At, p.After, p.Limit)
	if err != nil {
		return nil, err
	}
	return scanOrders(rows)
}

// FinishedOrderPage reads a page of paid and closed orders, by ID.
func (s *Driver) FinishedOrderPage(ctx context.Context, p driver.PageParams) ([]order.Order, error) {
	rows, err := s.read(ctx, "FinishedOrderPage", p.After, p.Limit)
	if err != nil {
		return nil, err
	}
	return scanOrders(rows)
}

// LockedPage reads a page of locked coupons, by locked_until and ID.
func (s *Driver) LockedPage(ctx context.Context, p driver.PageParams) ([]coupon.Coupon, error) {
	rows, err := s.read(ctx, "LockedPage", p.At, p.After, p.Limit)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (coupon.Coupon, error) { return scanCoupon(row) })
}

// pendingFrom names the query of PendingFrom per kind.
var pendingFrom = map[storetype.TimerKind]string{storetype.TimerExpire: "ExpiryFrom", storetype.TimerRelease: "ReleaseFrom"}

// PendingFrom reads the earliest due time at or after from of kind's
// pending coupons.
func (s *Driver) PendingFrom(ctx context.Context, kind storetype.TimerKind, from time.Time) (time.Time, error) {
	var due *time.Time
	if err := s.readRow(ctx, pendingFrom[kind], from).Scan(&due); err != nil || due == nil {
		return time.Time{}, err
	}
	return due.UTC(), nil
}

// HasTimer reports whether the group timer tm is stored.
func (s *Driver) HasTimer(ctx context.Context, tm storetype.Timer) (bool, error) {
	var ok bool
	err := s.readRow(ctx, "HasTimer", tm.Due, string(tm.Kind)).Scan(&ok)
	return ok, err
}
