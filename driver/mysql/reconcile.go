package mysql

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/mysql/internal/dbsqlc"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/storetype"
)

// OpenOrderPage reads a page of unpaid orders, by deadline and ID.
func (e *executor) OpenOrderPage(ctx context.Context, p driver.PageParams) ([]order.Order, error) {
	rows, err := e.sq().OpenOrderPage(ctx, dbsqlc.OpenOrderPageParams{Deadline: p.At, ID: p.After, Limit: int32(p.Limit)})
	return sqlfile.Convert(rows, err, storedOrder)
}

// LockedPage reads a page of locked coupons, by locked_until and ID.
func (e *executor) LockedPage(ctx context.Context, p driver.PageParams) ([]coupon.Coupon, error) {
	rows, err := e.sq().LockedPage(ctx, dbsqlc.LockedPageParams{
		LockedUntil: sql.NullTime{Time: p.At, Valid: true}, ID: p.After, Limit: int32(p.Limit),
	})
	return sqlfile.Convert(rows, err, storedCoupon)
}

// PendingFrom reads the earliest due time at or after p.From of kind
// p.Kind's pending coupons, in every shard, or orders, in the shards of
// p.Leases.
func (e *executor) PendingFrom(ctx context.Context, p driver.PendingFromParams) (time.Time, error) {
	var (
		due time.Time
		err error
	)
	switch p.Kind {
	case storetype.TimerClose:
		due, err = e.sq().DeadlineFrom(ctx, dbsqlc.DeadlineFromParams{FromTime: p.From, Shards: shardList(p.Leases.Shards())})
	case storetype.TimerExpire:
		due, err = e.sq().ExpiryFrom(ctx, p.From)
	case storetype.TimerRelease:
		due, err = e.sq().ReleaseFrom(ctx, sql.NullTime{Time: p.From, Valid: true})
	default:
		return time.Time{}, fmt.Errorf("pending from: no timer kind %q", p.Kind)
	}
	if err == sql.ErrNoRows {
		return time.Time{}, nil
	}
	return due.UTC(), err
}

// HasTimer reports whether the group timer tm is stored.
func (e *executor) HasTimer(ctx context.Context, tm storetype.Timer) (bool, error) {
	return e.sq().HasTimer(ctx, dbsqlc.HasTimerParams{DueAt: tm.Due, Kind: string(tm.Kind)})
}

// FinishedOrderPage reads a page of paid and closed orders, by ID.
func (e *executor) FinishedOrderPage(ctx context.Context, p driver.PageParams) ([]order.Order, error) {
	rows, err := e.sq().FinishedOrderPage(ctx, dbsqlc.FinishedOrderPageParams{After: p.After, Limit: int32(p.Limit)})
	return sqlfile.Convert(rows, err, storedOrder)
}

// StockPage reads the sums of a page of SKUs, by SKU.
func (e *executor) StockPage(ctx context.Context, p driver.PageParams) ([]driver.StockSum, error) {
	rows, err := e.sq().StockPage(ctx, dbsqlc.StockPageParams{After: p.After, Limit: int32(p.Limit)})
	return sqlfile.Convert(rows, err, func(r dbsqlc.StockPageRow) (driver.StockSum, error) {
		sku := storetype.SKU{SKU: r.Sku, Available: r.Available, Reserved: r.Reserved, Sold: r.Sold, Buckets: int(r.Buckets)}
		return driver.StockSum{SKU: sku, Stock: r.Stock}, nil
	})
}
