package sqlite

import (
	"context"
	"database/sql"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/storetype"
)

// OrdersDue reads up to p.Limit unpaid orders of p's shards past their
// deadline. In a transaction the one writer holds them.
func (e *executor) OrdersDue(ctx context.Context, p storetype.DueParams) ([]order.Order, error) {
	rows, err := e.query(ctx, "OrdersDue", ms(p.Now), p.Limit, shardFilter(p.Leases))
	return sqlfile.Collect(rows, err, scanOrder)
}

// StockBuckets reads every bucket of a SKU, in bucket order. In a
// transaction the one writer holds them.
func (e *executor) StockBuckets(ctx context.Context, sku string) ([]driver.StockBucket, error) {
	rows, err := e.query(ctx, "StockBuckets", sku)
	return sqlfile.Collect(rows, err, sqlfile.ScanStockBucket)
}

// AddStock adds d's amounts to one bucket of a SKU, guarded.
func (e *executor) AddStock(ctx context.Context, d driver.StockDelta) (bool, error) {
	return e.execOne(ctx, "AddStock", d.SKU, d.Bucket, d.Buckets, d.Available, d.Reserved, d.Sold, ms(d.Now))
}

// NewStock stores a new SKU of one empty bucket, unless it exists.
func (e *executor) NewStock(ctx context.Context, p driver.NewStockParams) error {
	_, err := e.exec(ctx, "NewStock", p.SKU, ms(p.Now))
	return err
}

// PutStockBucket stores one bucket of a SKU, new or not.
func (e *executor) PutStockBucket(ctx context.Context, p driver.PutStockBucketParams) error {
	b := p.Bucket
	_, err := e.exec(ctx, "PutStockBucket", p.SKU, b.Bucket, b.Buckets, b.Available, b.Reserved, b.Sold, ms(p.Now), b.Stock)
	return err
}

// InsertOrder stores a new unpaid order.
func (e *executor) InsertOrder(ctx context.Context, o order.Order) error {
	items, coupons := sqlfile.OrderJSON(o)
	_, err := e.exec(ctx, "InsertOrder", o.ID, o.UserID, items, coupons, o.Total, o.Discount, o.AmountDue,
		ms(o.Deadline), ms(o.CreatedAt), ms(o.UpdatedAt))
	return err
}

// Order reads one order, or one archived order.
func (e *executor) Order(ctx context.Context, p driver.OrderParams) (order.Order, error) {
	name := orArchive(p.Archived, "GetOrder", "GetArchivedOrder")
	return sqlfile.ScanOne(e.queryRow(ctx, name, p.ID), scanOrder, interpret)
}

// SetOrder stores p.Next over p.From with a compare-and-set on unpaid
// and p.From's version.
func (e *executor) SetOrder(ctx context.Context, p driver.SetOrderParams) (bool, error) {
	from, next := p.From, p.Next
	return e.execOne(ctx, "SetOrderStatus", next.Status.String(), nullString(next.CloseReason), nullString(next.PaymentID),
		ms(next.UpdatedAt), from.ID, from.Version)
}

func scanOrder(row scanner) (order.Order, error) {
	var (
		o                              order.Order
		status, items, coupons         string
		reason, paymentID              sql.NullString
		deadline, createdAt, updatedAt int64
	)
	err := row.Scan(&o.ID, &o.UserID, &status, &reason, &items, &coupons, &o.Total, &o.Discount, &o.AmountDue,
		&deadline, &paymentID, &createdAt, &updatedAt, &o.Version)
	if err != nil {
		return o, err
	}
	if err := sqlfile.ParseOrderText(&o, status, items, coupons); err != nil {
		return o, err
	}
	o.CloseReason, o.PaymentID = reason.String, paymentID.String
	o.Deadline, o.CreatedAt, o.UpdatedAt = at(deadline), at(createdAt), at(updatedAt)
	return o, nil
}
