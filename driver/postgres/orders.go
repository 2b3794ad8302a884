package postgres

import (
	"context"
	"time"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/postgres/internal/dbsqlc"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/storetype"
)

// orderDeadline is when o falls due.
func orderDeadline(o order.Order) time.Time { return o.Deadline }

// OrdersDue reads up to p.Limit unpaid orders of p's shards past their
// deadline. In a transaction it holds them, skipping those a payment or
// another drain holds; outside one it reads them on the engine pool: the
// engine's order-close drain reads them.
func (e *executor) OrdersDue(ctx context.Context, p storetype.DueParams) ([]order.Order, error) {
	q := dbsqlc.New(e.engine)
	return claimRanges(p, orderDeadline, func(limit, lo, hi int) ([]order.Order, error) {
		if e.tx != nil {
			rows, err := q.ClaimOrdersDue(ctx, dbsqlc.ClaimOrdersDueParams(ordersDue(p, limit, lo, hi)))
			return sqlfile.Convert(rows, err, storedOrder)
		}
		rows, err := q.OrdersDue(ctx, ordersDue(p, limit, lo, hi))
		return sqlfile.Convert(rows, err, storedOrder)
	})
}

// ordersDue is the parameters of OrdersDue's query over the shards lo to
// hi.
func ordersDue(p storetype.DueParams, limit, lo, hi int) dbsqlc.OrdersDueParams {
	return dbsqlc.OrdersDueParams{Now: p.Now, Lo: int16(lo), Hi: int16(hi), Lim: int32(limit)}
}

// StockBuckets reads every bucket of a SKU, in bucket order, in a
// transaction holding them until it ends.
func (e *executor) StockBuckets(ctx context.Context, sku string) ([]driver.StockBucket, error) {
	if e.tx != nil {
		rows, err := e.sqlc().StockBucketsForUpdate(ctx, sku)
		return sqlfile.Convert(rows, err, stockBucket)
	}
	rows, err := e.sqlc().StockBuckets(ctx, sku)
	return sqlfile.Convert(rows, err, stockBucket)
}

// stockBucket is a bucket row as the driver hands it out, from either
// query of a SKU's buckets.
func stockBucket[R dbsqlc.StockBucketsRow | dbsqlc.StockBucketsForUpdateRow](row R) (driver.StockBucket, error) {
	r := dbsqlc.StockBucketsRow(row)
	return driver.StockBucket{
		Bucket: int(r.Bucket), Buckets: int(r.Buckets), Available: r.Available, Reserved: r.Reserved, Sold: r.Sold,
	}, nil
}

// AddStock adds d's amounts to one bucket of a SKU, guarded.
func (e *executor) AddStock(ctx context.Context, d driver.StockDelta) (bool, error) {
	n, err := e.sqlc().AddStock(ctx, dbsqlc.AddStockParams{
		Sku: d.SKU, Bucket: int16(d.Bucket), Buckets: int16(d.Buckets), Available: d.Available, Reserved: d.Reserved,
		Sold: d.Sold, Now: d.Now,
	})
	return n > 0, err
}

// NewStock stores a new SKU of one empty bucket, unless it exists.
func (e *executor) NewStock(ctx context.Context, p driver.NewStockParams) error {
	return e.sqlc().NewStock(ctx, dbsqlc.NewStockParams{Sku: p.SKU, Now: p.Now})
}

// PutStockBucket stores one bucket of a SKU, new or not.
func (e *executor) PutStockBucket(ctx context.Context, p driver.PutStockBucketParams) error {
	b := p.Bucket
	return e.sqlc().PutStockBucket(ctx, dbsqlc.PutStockBucketParams{
		Sku: p.SKU, Bucket: int16(b.Bucket), Buckets: int16(b.Buckets), Available: b.Available, Reserved: b.Reserved,
		Sold: b.Sold, Now: p.Now, Stock: b.Stock,
	})
}

// InsertOrder stores a new unpaid order.
func (e *executor) InsertOrder(ctx context.Context, o order.Order) error {
	return e.sqlc().InsertOrder(ctx, dbsqlc.InsertOrderParams{
		ID: o.ID, UserID: o.UserID, Items: o.Items, CouponIds: o.CouponIDs, Total: o.Total, Discount: o.Discount,
		AmountDue: o.AmountDue, Deadline: o.Deadline, CreatedAt: o.CreatedAt, UpdatedAt: o.UpdatedAt,
	})
}

// Order reads one order, or one archived order. In a transaction it holds
// a stored order until the transaction ends: a payment and a close of one
// order queue here.
func (e *executor) Order(ctx context.Context, p driver.OrderParams) (order.Order, error) {
	switch {
	case p.Archived:
		r, err := e.sqlc().GetArchivedOrder(ctx, p.ID)
		return sqlfile.ConvertOne(r, err, storedOrder, interpret)
	case e.tx != nil:
		r, err := e.sqlc().GetOrderForUpdate(ctx, p.ID)
		return sqlfile.ConvertOne(r, err, storedOrder, interpret)
	}
	r, err := e.sqlc().GetOrder(ctx, p.ID)
	return sqlfile.ConvertOne(r, err, storedOrder, interpret)
}

// SetOrder stores p.Next over p.From with a compare-and-set on unpaid and
// p.From's version.
func (e *executor) SetOrder(ctx context.Context, p driver.SetOrderParams) (bool, error) {
	next := p.Next
	n, err := e.sqlc().SetOrderStatus(ctx, dbsqlc.SetOrderStatusParams{
		Status: next.Status.String(), CloseReason: nullString(next.CloseReason), PaymentID: nullString(next.PaymentID),
		UpdatedAt: next.UpdatedAt, ID: p.From.ID, FromVersion: p.From.Version,
	})
	return n > 0, err
}

// orderRow is the rows of the sqlc queries that read an order: each has
// GetOrder's columns.
type orderRow interface {
	dbsqlc.GetOrderRow | dbsqlc.GetArchivedOrderRow | dbsqlc.GetOrderForUpdateRow | dbsqlc.OrdersDueRow |
		dbsqlc.ClaimOrdersDueRow | dbsqlc.OpenOrderPageRow | dbsqlc.FinishedOrderPageRow
}

// storedOrder is an order row as the driver hands it out.
func storedOrder[R orderRow](row R) (order.Order, error) {
	r := dbsqlc.GetOrderRow(row)
	status, err := order.ParseStatus(r.Status)
	return order.Order{
		ID: r.ID, UserID: r.UserID, Status: status, CloseReason: orZero(r.CloseReason), Items: r.Items,
		CouponIDs: r.CouponIds, Total: r.Total, Discount: r.Discount, AmountDue: r.AmountDue, Deadline: r.Deadline,
		PaymentID: orZero(r.PaymentID), CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt, Version: r.Version,
	}, err
}

// CloseOrders closes the listed orders still unpaid.
func (e *executor) CloseOrders(ctx context.Context, p driver.CloseOrdersParams) (int64, error) {
	return e.sqlc().CloseOrders(ctx, dbsqlc.CloseOrdersParams{Ids: p.IDs, Reason: nullString(p.Reason), Now: p.Now})
}

// DropStockBuckets deletes SKU p.SKU's buckets from bucket p.From on.
func (e *executor) DropStockBuckets(ctx context.Context, p driver.DropStockBucketsParams) error {
	return e.sqlc().DropStockBuckets(ctx, dbsqlc.DropStockBucketsParams{Sku: p.SKU, First: int16(p.From)})
}
