package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/store"
)

// SKU returns one SKU's counters.
func (s *Driver) SKU(ctx context.Context, sku string) (store.SKU, error) {
	k, err := scanSKU(s.readRow(ctx, "GetSKU", sku))
	return k, interpret(err)
}

// Order returns one order.
func (s *Driver) Order(ctx context.Context, id string) (order.Order, error) {
	o, err := scanOrder(s.readRow(ctx, "GetOrder", id))
	return o, interpret(err)
}

// DueOrders lists unpaid orders past their deadline, on the engine pool:
// the engine's order-close drain reads them.
func (s *Driver) DueOrders(ctx context.Context, p store.DueParams) (store.DueOrders, error) {
	var (
		d   store.DueOrders
		err error
	)
	d.Orders, err = claimRanges(p, func(limit, lo, hi int) ([]order.Order, error) {
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

// OrdersDue reads up to p.Limit unpaid orders of p's shards past their
// deadline, holding them; those a payment or another drain holds are
// skipped.
func (t *tx) OrdersDue(p store.DueParams) ([]order.Order, error) {
	return claimRanges(p, func(limit, lo, hi int) ([]order.Order, error) {
		rows, err := t.query("ClaimOrdersDue", p.Now, limit, lo, hi)
		if err != nil {
			return nil, err
		}
		return scanOrders(rows)
	})
}

// SKU reads one SKU's counters and holds it until the transaction ends.
func (t *tx) SKU(sku string) (store.SKU, error) {
	k, err := scanSKU(t.queryRow("GetSKUForUpdate", sku))
	return k, interpret(err)
}

// PutSKU sets a SKU's total stock, creating it if new.
func (t *tx) PutSKU(p store.PutSKUParams) error {
	_, err := t.exec("PutSKU", p.SKU, p.Stock, p.Now)
	return err
}

// stockQueries names the query of each stock move.
var stockQueries = map[store.StockMove]string{store.Reserve: "Reserve", store.Sell: "Sell", store.Release: "Release"}

// MoveStock runs one of the guarded stock moves.
func (t *tx) MoveStock(move store.StockMove, it order.Item, now time.Time) (bool, error) {
	return t.execOne(stockQueries[move], it.SKU, it.Qty, now)
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
	o, err := scanOrder(t.queryRow("GetOrderForUpdate", id))
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
