package mysql

import (
	"context"
	"database/sql"
	"time"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/mysql/internal/dbsqlc"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/storetype"
)

// Order reads one order, holding its row in a transaction until it
// ends, or with p.Archived one archived order.
func (e *executor) Order(ctx context.Context, p driver.OrderParams) (order.Order, error) {
	switch {
	case p.Archived:
		r, err := e.sq().GetArchivedOrder(ctx, p.ID)
		return sqlfile.ConvertOne(r, err, storedOrder, interpret)
	case e.tx != nil:
		r, err := e.sq().LockOrder(ctx, p.ID)
		return sqlfile.ConvertOne(r, err, storedOrder, interpret)
	}
	r, err := e.sq().GetOrder(ctx, p.ID)
	return sqlfile.ConvertOne(r, err, storedOrder, interpret)
}

// OrdersDue reads up to p.Limit unpaid orders of p's shards past their
// deadline: in a transaction holding them (orders another transaction
// holds are skipped, not waited for), outside one on the engine pool, as
// the engine's order-close drain reads them.
func (e *executor) OrdersDue(ctx context.Context, p storetype.DueParams) ([]order.Order, error) {
	read := func(ctx context.Context, q *dbsqlc.Queries, c claim) ([]order.Order, error) {
		now, shard, limit := c.args()
		rows, err := q.OrdersDue(ctx, dbsqlc.OrdersDueParams{Now: now, Shard: shard, Limit: limit})
		return sqlfile.Convert(rows, err, storedOrder)
	}
	if e.tx != nil {
		read = func(ctx context.Context, q *dbsqlc.Queries, c claim) ([]order.Order, error) {
			now, shard, limit := c.args()
			rows, err := q.ClaimOrdersDue(ctx, dbsqlc.ClaimOrdersDueParams{Now: now, Shard: shard, Limit: limit})
			return sqlfile.Convert(rows, err, storedOrder)
		}
	}
	return readDue(ctx, e.engine(), p, "DueOrderShards", read, deadline)
}

// StockBuckets reads every bucket of a SKU, in bucket order, and in a
// transaction holds them until it ends.
func (e *executor) StockBuckets(ctx context.Context, sku string) ([]driver.StockBucket, error) {
	if e.tx == nil {
		rows, err := e.sq().GetStockBuckets(ctx, sku)
		return sqlfile.Convert(rows, err, stockBucket)
	}
	rows, err := e.sq().StockBuckets(ctx, sku)
	return sqlfile.Convert(rows, err, stockBucket)
}

// stockBucket is a bucket row as the store reads it, from either query of
// a SKU's buckets.
func stockBucket[R dbsqlc.StockBucketsRow | dbsqlc.GetStockBucketsRow](row R) (driver.StockBucket, error) {
	r := dbsqlc.StockBucketsRow(row)
	return driver.StockBucket{Bucket: int(r.Bucket), Buckets: int(r.Buckets), Available: r.Available, Reserved: r.Reserved, Sold: r.Sold}, nil
}

// AddStock adds d's amounts to one bucket of a SKU, guarded.
func (e *executor) AddStock(ctx context.Context, d driver.StockDelta) (bool, error) {
	n, err := e.sq().AddStock(ctx, dbsqlc.AddStockParams{
		Available: d.Available, Reserved: d.Reserved, Sold: d.Sold, Now: d.Now, Sku: d.SKU, Bucket: int8(d.Bucket), Buckets: int8(d.Buckets),
	})
	return n > 0, err
}

// NewStock stores a new SKU of one empty bucket, unless it exists.
func (e *executor) NewStock(ctx context.Context, p driver.NewStockParams) error {
	return e.sq().NewStock(ctx, dbsqlc.NewStockParams{Sku: p.SKU, Now: p.Now})
}

// PutStockBucket stores one bucket of a SKU, new or not.
func (e *executor) PutStockBucket(ctx context.Context, p driver.PutStockBucketParams) error {
	b := p.Bucket
	return e.sq().PutStockBucket(ctx, dbsqlc.PutStockBucketParams{
		Sku: p.SKU, Bucket: int8(b.Bucket), Buckets: int8(b.Buckets), Available: b.Available, Reserved: b.Reserved, Sold: b.Sold,
		Now: p.Now, Stock: b.Stock,
	})
}

// InsertOrder stores a new unpaid order.
func (e *executor) InsertOrder(ctx context.Context, o order.Order) error {
	items, coupons := sqlfile.OrderJSON(o)
	return e.later().InsertOrder(ctx, dbsqlc.InsertOrderParams{
		ID: o.ID, UserID: o.UserID, Items: items, CouponIds: coupons, Total: o.Total, Discount: o.Discount,
		AmountDue: o.AmountDue, Deadline: o.Deadline, CreatedAt: o.CreatedAt, UpdatedAt: o.UpdatedAt,
	})
}

// SetOrder stores p.Next over p.From with a compare-and-set on unpaid and
// p.From's version.
func (e *executor) SetOrder(ctx context.Context, p driver.SetOrderParams) (bool, error) {
	from, next := p.From, p.Next
	n, err := e.sq().SetOrderStatus(ctx, dbsqlc.SetOrderStatusParams{
		Status: next.Status.String(), CloseReason: nullString(next.CloseReason), PaymentID: nullString(next.PaymentID),
		UpdatedAt: next.UpdatedAt, ID: from.ID, Version: from.Version,
	})
	return n > 0, err
}

// orderRow is the rows of the sqlc queries that read an order: each has
// GetOrder's columns.
type orderRow interface {
	dbsqlc.GetOrderRow | dbsqlc.GetArchivedOrderRow | dbsqlc.LockOrderRow | dbsqlc.OpenOrderPageRow | dbsqlc.FinishedOrderPageRow |
		dbsqlc.OrdersDueRow | dbsqlc.ClaimOrdersDueRow
}

// storedOrder is an order row as the driver hands it out.
func storedOrder[R orderRow](row R) (order.Order, error) {
	r := dbsqlc.GetOrderRow(row)
	o := order.Order{
		ID: r.ID, UserID: r.UserID, CloseReason: r.CloseReason.String, Total: r.Total, Discount: r.Discount,
		AmountDue: r.AmountDue, Deadline: r.Deadline, PaymentID: r.PaymentID.String, CreatedAt: r.CreatedAt,
		UpdatedAt: r.UpdatedAt, Version: r.Version,
	}
	return o, sqlfile.ParseOrderText(&o, r.Status, r.Items, r.CouponIds)
}

// deadline is an order's due time, which orders a drain's batch.
func deadline(o order.Order) time.Time { return o.Deadline }

// CloseOrders closes the listed orders still unpaid.
func (e *executor) CloseOrders(ctx context.Context, p driver.CloseOrdersParams) (int64, error) {
	if len(p.IDs) == 0 {
		return 0, nil
	}
	return e.sq().CloseOrders(ctx, dbsqlc.CloseOrdersParams{Reason: sql.NullString{String: p.Reason, Valid: true}, UpdatedAt: p.Now, Ids: p.IDs})
}

// DropStockBuckets deletes SKU p.SKU's buckets from bucket p.From on.
func (e *executor) DropStockBuckets(ctx context.Context, p driver.DropStockBucketsParams) error {
	return e.sq().DropStockBuckets(ctx, dbsqlc.DropStockBucketsParams{Sku: p.SKU, First: int8(p.From)})
}
