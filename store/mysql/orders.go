package mysql

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"

	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/store"
)

// SKU returns one SKU's counters.
func (s *Driver) SKU(ctx context.Context, sku string) (store.SKU, error) {
	k, err := scanSKU(s.queryRow(ctx, "GetSKU", sku))
	return k, interpret(err)
}

// Order returns one order.
func (s *Driver) Order(ctx context.Context, id string) (order.Order, error) {
	o, err := scanOrder(s.queryRow(ctx, "GetOrder", id))
	return o, interpret(err)
}

// DueOrders lists unpaid orders past their deadline, on the engine pool:
// the engine's order-close drain reads them.
func (s *Driver) DueOrders(ctx context.Context, p store.DueParams) (store.DueOrders, error) {
	var d store.DueOrders
	var err error
	d.Orders, err = readDue(ctx, s.engine, p, "DueOrderShards", "OrdersDue", scanOrder, deadline)
	if err != nil {
		return d, err
	}
	shards := store.ShardsOf(p.Leases)
	err = s.engine.QueryRowContext(ctx, expand(queries.Get("DeadlineAfter"), len(shards)), withShards(p.Now, shards)...).Scan(&d.Next)
	if errors.Is(err, sql.ErrNoRows) {
		return d, nil
	}
	return d, err
}

// OrdersDue reads up to p.Limit unpaid orders of p's shards past their
// deadline, holding them; orders another transaction holds are skipped,
// not waited for.
func (t *tx) OrdersDue(p store.DueParams) ([]order.Order, error) {
	return readDue(t.ctx, t.sql, p, "DueOrderShards", "ClaimOrdersDue", scanOrder, deadline)
}

// SKU reads one SKU's counters and holds its row until the transaction
// ends.
func (t *tx) SKU(sku string) (store.SKU, error) {
	k, err := scanSKU(t.queryRow("LockSKU", sku))
	return k, interpret(err)
}

// PutSKU sets a SKU's total stock, creating it if new.
func (t *tx) PutSKU(p store.PutSKUParams) error {
	_, err := t.exec("PutSKU", p.SKU, p.Stock, p.Now, p.Stock, p.Now)
	return err
}

// stockQueries names the query of each stock move.
var stockQueries = map[store.StockMove]string{store.Reserve: "Reserve", store.Sell: "Sell", store.Release: "Release"}

// MoveStock runs one of the guarded stock moves.
func (t *tx) MoveStock(move store.StockMove, it order.Item, now time.Time) (bool, error) {
	return t.execOne(stockQueries[move], it.Qty, it.Qty, now, it.SKU, it.Qty)
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
	o, err := scanOrder(t.queryRow("LockOrder", id))
	return o, interpret(err)
}

// SetOrder stores next over from with a compare-and-set on unpaid and
// from's version.
func (t *tx) SetOrder(from, next order.Order) (bool, error) {
	return t.execOne("SetOrderStatus", next.Status.String(), nullString(next.CloseReason), nullString(next.PaymentID),
		next.UpdatedAt, from.ID, from.Version)
}

func scanSKU(row scanner) (store.SKU, error) {
	var k store.SKU
	err := row.Scan(&k.SKU, &k.Available, &k.Reserved, &k.Sold)
	return k, err
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
