package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/postgres/internal/dbsqlc"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/storetype"
)

// OpenOrderPage reads a page of unpaid orders, by deadline and ID.
func (e *executor) OpenOrderPage(ctx context.Context, p driver.PageParams) ([]order.Order, error) {
	rows, err := e.sqlc().OpenOrderPage(ctx, dbsqlc.OpenOrderPageParams{Deadline: p.At, ID: p.After, PageSize: int32(p.Limit)})
	return sqlfile.Convert(rows, err, storedOrder)
}

// LockedPage reads a page of locked coupons, by locked_until and ID.
func (e *executor) LockedPage(ctx context.Context, p driver.PageParams) ([]coupon.Coupon, error) {
	rows, err := e.sqlc().LockedPage(ctx, dbsqlc.LockedPageParams{LockedUntil: &p.At, ID: p.After, PageSize: int32(p.Limit)})
	return sqlfile.Convert(rows, err, storedCoupon)
}

// PendingFrom reads the earliest due time at or after p.From of kind
// p.Kind's pending coupons, in every shard, or orders, in the shard
// ranges of p.Leases.
func (e *executor) PendingFrom(ctx context.Context, p driver.PendingFromParams) (time.Time, error) {
	if p.Kind == storetype.TimerClose {
		due, err := earliest(p.Leases, func(lo, hi int16) (time.Time, error) {
			return e.sqlc().DeadlineFrom(ctx, dbsqlc.DeadlineFromParams{Deadline: p.From, Shard: lo, Shard_2: hi})
		})
		return due.UTC(), err
	}
	var (
		due time.Time
		err error
	)
	switch p.Kind {
	case storetype.TimerExpire:
		due, err = e.sqlc().ExpiryFrom(ctx, p.From)
	case storetype.TimerRelease:
		var at *time.Time
		if at, err = e.sqlc().ReleaseFrom(ctx, &p.From); at != nil {
			due = *at
		}
	default:
		return time.Time{}, fmt.Errorf("pending from: no timer kind %q", p.Kind)
	}
	if err != nil {
		if errors.Is(err, pgx.ErrNoRows) {
			err = nil
		}
		return time.Time{}, err
	}
	return due.UTC(), nil
}

// HasTimer reports whether the group timer tm is stored.
func (e *executor) HasTimer(ctx context.Context, tm storetype.Timer) (bool, error) {
	return e.sqlc().HasTimer(ctx, dbsqlc.HasTimerParams{DueAt: tm.Due, Kind: string(tm.Kind)})
}

// FinishedOrderPage reads a page of paid and closed orders, by ID.
func (e *executor) FinishedOrderPage(ctx context.Context, p driver.PageParams) ([]order.Order, error) {
	rows, err := e.sqlc().FinishedOrderPage(ctx, dbsqlc.FinishedOrderPageParams{After: p.After, PageSize: int32(p.Limit)})
	return sqlfile.Convert(rows, err, storedOrder)
}

// StockPage reads the sums of a page of SKUs, by SKU.
func (e *executor) StockPage(ctx context.Context, p driver.PageParams) ([]driver.StockSum, error) {
	rows, err := e.sqlc().StockPage(ctx, dbsqlc.StockPageParams{After: p.After, PageSize: int32(p.Limit)})
	return sqlfile.Convert(rows, err, func(r dbsqlc.StockPageRow) (driver.StockSum, error) {
		sku := storetype.SKU{SKU: r.Sku, Available: r.Available, Reserved: r.Reserved, Sold: r.Sold, Buckets: int(r.Buckets)}
		return driver.StockSum{SKU: sku, Stock: r.Stock}, nil
	})
}
