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
	name := e.pick("OrdersDue", "ClaimOrdersDue")
	return claimRanges(p, orderDeadline, func(limit, lo, hi int) ([]order.Order, error) {
		rows, err := e.engine.Query(ctx, queries.Get(name), p.Now, limit, lo, hi)
		return sqlfile.Collect(rows, err, scanOrder)
	})
}

// StockBuckets reads every bucket of a SKU, in bucket order, in a
// transaction holding them until it ends.
func (e *executor) StockBuckets(ctx context.Context, sku string) ([]driver.StockBucket, error) {
	if e.tx != nil {
		rows, err := e.sqlc().StockBucketsForUpdate(ctx, sku)
		return sqlfile.Convert(rows, err, func(r dbsqlc.StockBucketsForUpdateRow) (driver.StockBucket, error) {
			return stockBucket(dbsqlc.StockBucketsRow(r))
		})
	}
	rows, err := e.sqlc().StockBuckets(ctx, sku)
	return sqlfile.Convert(rows, err, stockBucket)
}

// stockBucket is a bucket row as the driver hands it out.
func stockBucket(r dbsqlc.StockBucketsRow) (driver.StockBucket, error) {
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
	_, err := e.exec(ctx, "InsertOrder", o.ID, o.UserID, o.Items, o.CouponIDs, o.Total, o.Discount, o.AmountDue,
		o.Deadline, o.CreatedAt, o.UpdatedAt)
	return err
}

// Order reads one order, or one archived order. In a transaction it holds
// a stored order until the transaction ends: a payment and a close of one
// order queue here.
func (e *executor) Order(ctx context.Context, p driver.OrderParams) (order.Order, error) {
	name := e.pick("GetOrder", "GetOrderForUpdate")
	if p.Archived {
		name = "GetArchivedOrder"
	}
	return sqlfile.ScanOne(e.queryRow(ctx, name, p.ID), scanOrder, interpret)
}

// SetOrder stores p.Next over p.From with a compare-and-set on unpaid and
// p.From's version.
func (e *executor) SetOrder(ctx context.Context, p driver.SetOrderParams) (bool, error) {
	next := p.Next
	return e.execOne(ctx, "SetOrderStatus", next.Status.String(), nullString(next.CloseReason), nullString(next.PaymentID),
		next.UpdatedAt, p.From.ID, p.From.Version)
}

func scanOrder(row scanner) (order.Order, error) {
	var (
		o                 order.Order
		status            string
		reason, paymentID *string
	)
	err := row.Scan(&o.ID, &o.UserID, &status, &reason, &o.Items, &o.CouponIDs, &o.Total, &o.Discount, &o.AmountDue,
		&o.Deadline, &paymentID, &o.CreatedAt, &o.UpdatedAt, &o.Version)
	if err != nil {
		return o, err
	}
	o.CloseReason, o.PaymentID = orZero(reason), orZero(paymentID)
	o.Status, err = order.ParseStatus(status)
	return o, err
}
