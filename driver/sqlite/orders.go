package sqlite

import (
	"context"
	"database/sql"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/sqlite/internal/dbsqlc"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/storetype"
)

// OrdersDue reads up to p.Limit unpaid orders of p's shards past their
// deadline. In a transaction the one writer holds them.
func (e *executor) OrdersDue(ctx context.Context, p storetype.DueParams) ([]order.Order, error) {
	rows, err := e.q().OrdersDue(ctx, dbsqlc.OrdersDueParams{Now: ms(p.Now), Shards: shardFilter(p.Leases), Lim: int64(p.Limit)})
	return sqlfile.Convert(rows, err, orderOf)
}

// StockBuckets reads every bucket of a SKU, in bucket order. In a
// transaction the one writer holds them.
func (e *executor) StockBuckets(ctx context.Context, sku string) ([]driver.StockBucket, error) {
	rows, err := e.q().StockBuckets(ctx, sku)
	return sqlfile.Convert(rows, err, func(r dbsqlc.StockBucketsRow) (driver.StockBucket, error) {
		return driver.StockBucket{
			Bucket: int(r.Bucket), Buckets: int(r.Buckets), Available: r.Available, Reserved: r.Reserved, Sold: r.Sold,
		}, nil
	})
}

// AddStock adds d's amounts to one bucket of a SKU, guarded.
func (e *executor) AddStock(ctx context.Context, d driver.StockDelta) (bool, error) {
	n, err := e.q().AddStock(ctx, dbsqlc.AddStockParams{
		Sku: d.SKU, Bucket: int64(d.Bucket), Buckets: int64(d.Buckets), Available: d.Available, Reserved: d.Reserved,
		Sold: d.Sold, Now: ms(d.Now),
	})
	return n > 0, err
}

// NewStock stores a new SKU of one empty bucket, unless it exists.
func (e *executor) NewStock(ctx context.Context, p driver.NewStockParams) error {
	return e.q().NewStock(ctx, dbsqlc.NewStockParams{Sku: p.SKU, Now: ms(p.Now)})
}

// PutStockBucket stores one bucket of a SKU, new or not.
func (e *executor) PutStockBucket(ctx context.Context, p driver.PutStockBucketParams) error {
	b := p.Bucket
	return e.q().PutStockBucket(ctx, dbsqlc.PutStockBucketParams{
		Sku: p.SKU, Bucket: int64(b.Bucket), Buckets: int64(b.Buckets), Available: b.Available, Reserved: b.Reserved,
		Sold: b.Sold, Now: ms(p.Now), Stock: b.Stock,
	})
}

// InsertOrder stores a new unpaid order.
func (e *executor) InsertOrder(ctx context.Context, o order.Order) error {
	items, coupons := sqlfile.OrderJSON(o)
	return e.q().InsertOrder(ctx, dbsqlc.InsertOrderParams{
		ID: o.ID, UserID: o.UserID, Items: items, CouponIds: coupons, Total: o.Total, Discount: o.Discount,
		AmountDue: o.AmountDue, Deadline: ms(o.Deadline), CreatedAt: ms(o.CreatedAt), UpdatedAt: ms(o.UpdatedAt),
	})
}

// Order reads one order, or one archived order.
func (e *executor) Order(ctx context.Context, p driver.OrderParams) (order.Order, error) {
	if p.Archived {
		r, err := e.q().GetArchivedOrder(ctx, p.ID)
		return sqlfile.ConvertOne(r, err, orderOf, interpret)
	}
	r, err := e.q().GetOrder(ctx, p.ID)
	return sqlfile.ConvertOne(r, err, orderOf, interpret)
}

// SetOrder stores p.Next over p.From with a compare-and-set on unpaid
// and p.From's version.
func (e *executor) SetOrder(ctx context.Context, p driver.SetOrderParams) (bool, error) {
	from, next := p.From, p.Next
	n, err := e.q().SetOrderStatus(ctx, dbsqlc.SetOrderStatusParams{
		Status: next.Status.String(), CloseReason: nullString(next.CloseReason), PaymentID: nullString(next.PaymentID),
		UpdatedAt: ms(next.UpdatedAt), ID: from.ID, Version: from.Version,
	})
	return n > 0, err
}

// orderOf is an order as stored, its columns as sqlc reads them, from the
// table or its archive.
func orderOf[R dbsqlc.Order | dbsqlc.GetArchivedOrderRow](row R) (order.Order, error) {
	r := dbsqlc.Order(row)
	o := order.Order{
		ID: r.ID, UserID: r.UserID, Total: r.Total, Discount: r.Discount, AmountDue: r.AmountDue,
		CloseReason: r.CloseReason.String, PaymentID: r.PaymentID.String,
		Deadline: at(r.Deadline), CreatedAt: at(r.CreatedAt), UpdatedAt: at(r.UpdatedAt), Version: r.Version,
	}
	err := sqlfile.ParseOrderText(&o, r.Status, r.Items, r.CouponIds)
	return o, err
}

// CloseOrders closes the listed orders still unpaid.
func (e *executor) CloseOrders(ctx context.Context, p driver.CloseOrdersParams) (int64, error) {
	return e.q().CloseOrders(ctx, dbsqlc.CloseOrdersParams{
		Reason: sql.NullString{String: p.Reason, Valid: true}, UpdatedAt: ms(p.Now), Ids: jsonList(p.IDs),
	})
}

// DropStockBuckets deletes SKU p.SKU's buckets from bucket p.From on.
func (e *executor) DropStockBuckets(ctx context.Context, p driver.DropStockBucketsParams) error {
	return e.q().DropStockBuckets(ctx, dbsqlc.DropStockBucketsParams{Sku: p.SKU, First: int64(p.From)})
}
