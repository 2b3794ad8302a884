package mysql

import (
	"context"
	"database/sql"
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

// pendingQueries names the query of PendingFrom per kind.
var pendingQueries = map[storetype.TimerKind]string{
	storetype.TimerExpire: "ExpiryFrom", storetype.TimerRelease: "ReleaseFrom", storetype.TimerClose: "DeadlineFrom",
}

// PendingFrom reads the earliest due time at or after p.From of kind
// p.Kind's pending coupons, in every shard, or orders, in the shards of
// p.Leases.
func (e *executor) PendingFrom(ctx context.Context, p driver.PendingFromParams) (time.Time, error) {
	q, args := queries.Get(pendingQueries[p.Kind]), []any{p.From}
	if p.Kind == storetype.TimerClose {
		shards := p.Leases.Shards()
		q, args = expand(q, len(shards)), withShards(p.From, shards)
	}
	var due sql.NullTime
	if err := e.q.QueryRowContext(ctx, q, args...).Scan(&due); err != nil || !due.Valid {
		return time.Time{}, err
	}
	return due.Time.UTC(), nil
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
