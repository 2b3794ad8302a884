package sqlite

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
	return sqlfile.ScanOne(s.readRow(ctx, "GetSKU", sku), sqlfile.ScanSKU, interpret)
}

// Order returns one order.
func (s *Driver) Order(ctx context.Context, id string) (order.Order, error) {
	return sqlfile.ScanOne(s.readRow(ctx, "GetOrder", id), scanOrder, interpret)
}

// DueOrders lists unpaid orders past their deadline.
func (s *Driver) DueOrders(ctx context.Context, p storetype.DueParams) (storetype.DueOrders, error) {
	var d storetype.DueOrders
	shards := shardFilter(p.Leases)
	rows, err := s.read(ctx, "OrdersDue", ms(p.Now), p.Limit, shards)
	if d.Orders, err = sqlfile.Collect(rows, err, scanOrder); err != nil {
		return d, err
	}
	var next int64
	err = s.readRow(ctx, "DeadlineAfter", ms(p.Now), shards).Scan(&next)
	if errors.Is(err, sql.ErrNoRows) {
		return d, nil
	}
	d.Next = at(next)
	return d, err
}

// OrdersDue reads up to p.Limit unpaid orders of p's shards past their
// deadline. The one writer holds them.
func (t *tx) OrdersDue(p storetype.DueParams) ([]order.Order, error) {
	rows, err := t.query("OrdersDue", ms(p.Now), p.Limit, shardFilter(p.Leases))
	return sqlfile.Collect(rows, err, scanOrder)
}

// StockBuckets reads every bucket of a SKU, in bucket order. The one
// writer holds them.
func (t *tx) StockBuckets(sku string) ([]driver.StockBucket, error) {
	rows, err := t.query("StockBuckets", sku)
	return sqlfile.Collect(rows, err, sqlfile.ScanStockBucket)
}

// AddStock adds d's amounts to one bucket of a SKU, guarded.
func (t *tx) AddStock(d driver.StockDelta) (bool, error) {
	return t.execOne("AddStock", d.SKU, d.Bucket, d.Buckets, d.Available, d.Reserved, d.Sold, ms(d.Now))
}

// NewStock stores a new SKU of one empty bucket, unless it exists.
func (t *tx) NewStock(sku string, now time.Time) error {
	_, err := t.exec("NewStock", sku, ms(now))
	return err
}

// PutStockBucket stores one bucket of a SKU, new or not.
func (t *tx) PutStockBucket(sku string, b driver.StockBucket, now time.Time) error {
	_, err := t.exec("PutStockBucket", sku, b.Bucket, b.Buckets, b.Available, b.Reserved, b.Sold, ms(now), b.Stock)
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
		ms(o.Deadline), ms(o.CreatedAt), ms(o.UpdatedAt))
	return err
}

// Order reads one order.
func (t *tx) Order(id string) (order.Order, error) {
	return sqlfile.ScanOne(t.queryRow("GetOrder", id), scanOrder, interpret)
}

// SetOrder stores next over from with a compare-and-set on unpaid and
// from's version.
func (t *tx) SetOrder(from, next order.Order) (bool, error) {
	return t.execOne("SetOrderStatus", next.Status.String(), nullString(next.CloseReason), nullString(next.PaymentID),
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
	o.Deadline, o.CreatedAt, o.UpdatedAt = at(deadline), at(createdAt), at(updatedAt)
	return o, nil
}
