package mysql

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/storetype"
)

// SKU returns one SKU's counters.
func (s *Driver) SKU(ctx context.Context, sku string) (storetype.SKU, error) {
	return sqlfile.ScanOne(s.queryRow(ctx, "GetSKU", sku), sqlfile.ScanSKU, interpret)
}

// Order returns one order.
func (s *Driver) Order(ctx context.Context, id string) (order.Order, error) {
	return sqlfile.ScanOne(s.queryRow(ctx, "GetOrder", id), scanOrder, interpret)
}

// DueOrders lists unpaid orders past their deadline, on the engine pool:
// the engine's order-close drain reads them.
func (s *Driver) DueOrders(ctx context.Context, p storetype.DueParams) (storetype.DueOrders, error) {
	var d storetype.DueOrders
	var err error
	d.Orders, err = readDue(ctx, s.engine, p, "DueOrderShards", "OrdersDue", scanOrder, deadline)
	if err != nil {
		return d, err
	}
	shards := p.Leases.Shards()
	err = s.engine.QueryRowContext(ctx, expand(queries.Get("DeadlineAfter"), len(shards)), withShards(p.Now, shards)...).Scan(&d.Next)
	if errors.Is(err, sql.ErrNoRows) {
		return d, nil
	}
	return d, err
}

// OrdersDue reads up to p.Limit unpaid orders of p's shards past their
// deadline, holding them; orders another transaction holds are skipped,
// not waited for.
func (t *tx) OrdersDue(p storetype.DueParams) ([]order.Order, error) {
	return readDue(t.ctx, t.sql, p, "DueOrderShards", "ClaimOrdersDue", scanOrder, deadline)
}

// StockBuckets reads every bucket of a SKU, in bucket order, and holds
// them until the transaction ends.
func (t *tx) StockBuckets(sku string) ([]driver.StockBucket, error) {
	rows, err := t.query("StockBuckets", sku)
	return sqlfile.Collect(rows, err, sqlfile.ScanStockBucket)
}

// AddStock adds d's amounts to one bucket of a SKU, guarded.
func (t *tx) AddStock(d driver.StockDelta) (bool, error) {
	return t.execOne("AddStock", d.Available, d.Reserved, d.Sold, d.Now, d.SKU, d.Bucket, d.Buckets, d.Available)
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
	items, _ := json.Marshal(o.Items)
	coupons, _ := json.Marshal(o.CouponIDs)
	_, err := t.exec("InsertOrder", o.ID, o.UserID, string(items), string(coupons), o.Total, o.Discount, o.AmountDue,
		o.Deadline, o.CreatedAt, o.UpdatedAt)
	return err
}

// Order reads one order and holds its row until the transaction ends.
func (t *tx) Order(id string) (order.Order, error) {
	return sqlfile.ScanOne(t.queryRow("LockOrder", id), scanOrder, interpret)
}

// SetOrder stores next over from with a compare-and-set on unpaid and
// from's version.
func (t *tx) SetOrder(from, next order.Order) (bool, error) {
	return t.execOne("SetOrderStatus", next.Status.String(), nullString(next.CloseReason), nullString(next.PaymentID),
		next.UpdatedAt, from.ID, from.Version)
}

func scanOrder(row scanner) (order.Order, error) {
	var (
		o                      order.Order
		status, items, coupons string
		reason, paymentID      sql.NullString
	)
	err := row.Scan(&o.ID, &o.UserID, &status, &reason, &items, &coupons, &o.Total, &o.Discount, &o.AmountDue,
		&o.Deadline, &paymentID, &o.CreatedAt, &o.UpdatedAt, &o.Version)
	if err != nil {
		return o, err
	}
	if o.Status, err = order.ParseStatus(status); err != nil {
		return o, err
	}
	if err := json.Unmarshal([]byte(items), &o.Items); err != nil {
		return o, err
	}
	if err := json.Unmarshal([]byte(coupons), &o.CouponIDs); err != nil {
		return o, err
	}
	o.CloseReason, o.PaymentID = reason.String, paymentID.String
	return o, nil
}

// deadline is an order's due time, which orders a drain's batch.
func deadline(o order.Order) time.Time { return o.Deadline }
