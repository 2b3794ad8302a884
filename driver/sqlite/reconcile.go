package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/sqlite/internal/dbsqlc"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/storetype"
)

// OpenOrderPage reads a page of unpaid orders, by deadline and ID.
func (e *executor) OpenOrderPage(ctx context.Context, p driver.PageParams) ([]order.Order, error) {
	rows, err := e.q().OpenOrderPage(ctx, dbsqlc.OpenOrderPageParams{Deadline: ms(p.At), ID: p.After, PageSize: int64(p.Limit)})
	return sqlfile.Convert(rows, err, orderOf)
}

// LockedPage reads a page of locked coupons, by locked_until and ID.
func (e *executor) LockedPage(ctx context.Context, p driver.PageParams) ([]coupon.Coupon, error) {
	rows, err := e.q().LockedPage(ctx, dbsqlc.LockedPageParams{LockedUntil: msNotNull(p.At), ID: p.After, PageSize: int64(p.Limit)})
	return sqlfile.Convert(rows, err, couponOf)
}

// PendingFrom reads the earliest due time at or after p.From of kind
// p.Kind's pending coupons, in every shard, or orders, in the shards of
// p.Leases.
func (e *executor) PendingFrom(ctx context.Context, p driver.PendingFromParams) (time.Time, error) {
	var (
		due int64
		err error
	)
	switch p.Kind {
	case storetype.TimerExpire:
		due, err = e.q().ExpiryFrom(ctx, ms(p.From))
	case storetype.TimerRelease:
		var n sql.NullInt64
		n, err = e.q().ReleaseFrom(ctx, msNotNull(p.From))
		due = n.Int64
	case storetype.TimerClose:
		due, err = e.q().DeadlineFrom(ctx, dbsqlc.DeadlineFromParams{From: ms(p.From), Shards: shardFilter(p.Leases)})
	default:
		return time.Time{}, fmt.Errorf("pending from: no timer kind %q", p.Kind)
	}
	if err != nil {
		if err == sql.ErrNoRows {
			err = nil
		}
		return time.Time{}, err
	}
	return at(due), nil
}

// HasTimer reports whether the group timer tm is stored.
func (e *executor) HasTimer(ctx context.Context, tm storetype.Timer) (bool, error) {
	n, err := e.q().HasTimer(ctx, dbsqlc.HasTimerParams{DueAt: ms(tm.Due), Kind: string(tm.Kind)})
	return n > 0, err
}

// FinishedOrderPage reads a page of paid and closed orders, by ID.
func (e *executor) FinishedOrderPage(ctx context.Context, p driver.PageParams) ([]order.Order, error) {
	rows, err := e.q().FinishedOrderPage(ctx, dbsqlc.FinishedOrderPageParams{After: p.After, PageSize: int64(p.Limit)})
	return sqlfile.Convert(rows, err, orderOf)
}

// StockPage reads the sums of a page of SKUs, by SKU.
func (e *executor) StockPage(ctx context.Context, p driver.PageParams) ([]driver.StockSum, error) {
	rows, err := e.q().StockPage(ctx, dbsqlc.StockPageParams{After: p.After, PageSize: int64(p.Limit)})
	return sqlfile.Convert(rows, err, func(r dbsqlc.StockPageRow) (driver.StockSum, error) {
		sku := storetype.SKU{SKU: r.Sku, Available: r.Available, Reserved: r.Reserved, Sold: r.Sold, Buckets: int(r.Buckets)}
		return driver.StockSum{SKU: sku, Stock: r.Stock}, nil
	})
}
