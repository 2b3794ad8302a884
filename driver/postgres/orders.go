package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/storetype"
)

// SKU returns one SKU's counters.
func (s *Driver) SKU(ctx context.Context, sku string) (storetype.SKU, error) {
	return sqlfile.ScanOne(s.readRow(ctx, "GetSKU", sku), sqlfile.ScanSKU, interpret)
}

// Order returns one order.
func (s *Driver) Order(ctx context.Context, id string) (order.Order, error) {
	return sqlfile.ScanOne(s.readRow(ctx, "GetOrder", id), scanOrder, interpret)
}

// DueOrders lists unpaid orders past their deadline, on the engine pool:
// the engine's order-close drain reads them.
func (s *Driver) DueOrders(ctx context.Context, p storetype.DueParams) (storetype.DueOrders, error) {
	var (
		d   storetype.DueOrders
		err error
	)
	d.Orders, err = claimRanges(p, orderDeadline, func(limit, lo, hi int) ([]order.Order, error) {
		rows, err := s.engineRead(ctx, "OrdersDue", p.Now, limit, lo, hi)
		if err != nil {
			return nil, err
		}
		return scanOrders(rows)
	})
	if err != nil {
		return d, err
	}
	d.Next, err = earliest(p.Leases, func(lo, hi int) pgx.Row { return s.engineReadRow(ctx, "DeadlineAfter", p.Now, lo, hi) })
	return d, err
}

// orderDeadline is when o falls due.
func orderDeadline(o order.Order) time.Time { return o.Deadline }

// OrdersDue reads up to p.Limit unpaid orders of p's shards past their
// deadline, holding them; those a payment or another drain holds are
// skipped.
func (t *tx) OrdersDue(p storetype.DueParams) ([]order.Order, error) {
	return claimRanges(p, orderDeadline, func(limit, lo, hi int) ([]order.Order, error) {
		rows, err := t.query("ClaimOrdersDue", p.Now, limit, lo, hi)
		if err != nil {
			return nil, err
		}
		return scanOrders(rows)
	})
}

// StockBuckets reads every bucket of a SKU, in bucket order, and holds
// them until the transaction ends.
func (t *tx) StockBuckets(sku string) ([]driver.StockBucket, error) {
	rows, err := t.query("StockBuckets", sku)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (driver.StockBucket, error) { return sqlfile.ScanStockBucket(row) })
}

// AddStock adds d's amounts to one bucket of a SKU, guarded.
func (t *tx) AddStock(d driver.StockDelta) (bool, error) {
	return t.execOne("AddStock", d.SKU, d.Bucket, d.Buckets, d.Available, d.Reserved, d.Sold, d.Now)
}

// NewStock stores a new SKU of one empty bucket, unless it exists.
func (t *tx) NewStock(sku string, now time.Time) error {
	_, err := t.exec("NewStock", sku, now)
	return err
}

// PutStockBucket stores one bucket of a SKU, new or not.
func (t *tx) PutStockBucket(sku string, b driver.StockBucket, now time.Time) error {
	_, err := t.exec("PutStockBucket", sku, b.Bucket, b.Buckets, b.Available, b.Reserved, b.Sold, now, b.Stock)
	return err
}

// DropStockBuckets deletes a SKU's buckets from bucket from on.
func (t *tx) DropStockBuckets(sku string, from int) error {
	_, err := t.exec("DropStockBuckets", sku, from)
	return err
}

// InsertOrder stores a new unpaid order.
func (t *tx) InsertOrder(o order.Order) error {
	_, err := t.exec("InsertOrder", o.ID, o.UserID, o.Items, o.CouponIDs, o.Total, o.Discount, o.AmountDue,
		o.Deadline, o.CreatedAt, o.UpdatedAt)
	return err
}

// Order reads one order and holds it until the transaction ends: a
// payment and a close of one order queue here.
func (t *tx) Order(id string) (order.Order, error) {
	return sqlfile.ScanOne(t.queryRow("GetOrderForUpdate", id), scanOrder, interpret)
}

// SetOrder stores next over from with a compare-and-set on unpaid and
// from's version.
func (t *tx) SetOrder(from, next order.Order) (bool, error) {
	return t.execOne("SetOrderStatus", next.Status.String(), nullString(next.CloseReason), nullString(next.PaymentID),
		next.UpdatedAt, from.ID, from.Version)
}

func scanOrders(rows pgx.Rows) ([]order.Order, error) {
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (order.Order, error) { return scanOrder(row) })
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
