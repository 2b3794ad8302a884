package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/store"
)

// PutSKU sets a SKU's total stock.
func (s *Store) PutSKU(ctx context.Context, p store.PutSKUParams) (store.SKU, error) {
	if err := order.ValidateStock(p.Stock); err != nil {
		return store.SKU{}, err
	}
	return inTx(ctx, s, func(t *tx) (store.SKU, error) {
		cur, err := scanSKU(t.queryRow("GetSKU", p.SKU))
		if err == nil && p.Stock < cur.Reserved+cur.Sold {
			return cur, &coupon.InvalidError{Field: "stock", Reason: fmt.Sprintf("below reserved + sold (%d)", cur.Reserved+cur.Sold)}
		}
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return cur, err
		}
		if _, err := t.exec("PutSKU", p.SKU, p.Stock, ms(p.Now)); err != nil {
			return cur, err
		}
		return scanSKU(t.queryRow("GetSKU", p.SKU))
	})
}

// SKU returns one SKU's counters.
func (s *Store) SKU(ctx context.Context, sku string) (store.SKU, error) {
	k, err := scanSKU(s.readRow(ctx, "GetSKU", sku))
	return k, interpret(err)
}

// CreateOrder reserves stock, locks coupons and stores the order.
func (s *Store) CreateOrder(ctx context.Context, p store.CreateOrderParams) (order.Order, error) {
	if err := order.ValidateItems(p.Items); err != nil {
		return order.Order{}, err
	}
	if err := order.ValidateCoupons(p.CouponIDs); err != nil {
		return order.Order{}, err
	}
	if !p.Deadline.After(p.Now) {
		return order.Order{}, &coupon.InvalidError{Field: "deadline", Reason: "must be in the future"}
	}
	return inTx(ctx, s, func(t *tx) (order.Order, error) {
		o := order.Order{
			ID: store.NewID("ord", p.Now), UserID: p.UserID, Status: order.Unpaid,
			Items: p.Items, CouponIDs: append([]string{}, p.CouponIDs...), Total: order.Total(p.Items),
			Deadline: p.Deadline, CreatedAt: p.Now, UpdatedAt: p.Now, Version: 1,
		}
		for _, it := range order.BySKU(p.Items) {
			if err := t.moveStock("Reserve", it, p.Now); err != nil {
				return o, stockError(t, p.Items, it, err)
			}
		}
		values := make([]int64, len(p.CouponIDs))
		for i, id := range p.CouponIDs {
			c, err := scanCoupon(t.queryRow("GetCoupon", id))
			if errors.Is(err, sql.ErrNoRows) {
				return o, &coupon.InvalidError{Field: fmt.Sprintf("coupon_ids[%d]", i), Reason: "no such coupon"}
			}
			if err != nil {
				return o, err
			}
			tp, err := scanTemplate(t.queryRow("GetTemplate", c.TemplateID))
			if err != nil {
				return o, err
			}
			if err := order.CheckCoupon(i, c, tp, p.UserID, o.Total); err != nil {
				return o, err
			}
			lock := store.TransitionParams{CouponID: id, Action: coupon.Lock, OrderID: o.ID, Reason: store.ReasonOrder,
				LockTTL: p.Deadline.Sub(p.Now) + store.OrderLockMargin, Now: p.Now}
			if _, err := t.transition(c, lock); err != nil {
				return o, err
			}
			values[i] = tp.Value
		}
		o.Discount = order.Discount(o.Total, values)
		o.AmountDue = o.Total - o.Discount
		items, _ := json.Marshal(o.Items)
		coupons, _ := json.Marshal(o.CouponIDs)
		if _, err := t.exec("InsertOrder", o.ID, o.UserID, string(items), string(coupons), o.Total, o.Discount, o.AmountDue,
			ms(o.Deadline), ms(o.CreatedAt), ms(o.UpdatedAt)); err != nil {
			return o, err
		}
		if err := t.timer(store.TimerClose, o.Deadline); err != nil {
			return o, err
		}
		if _, err := t.touch(o.UserID, p.Now); err != nil {
			return o, err
		}
		return o, t.event(store.OrderEvent(o, store.EventOrderCreated, 0, "", p.Now))
	})
}

// stockError says why reserving it failed: an unknown SKU is a bad field,
// a known one is short of stock.
func stockError(t *tx, items []order.Item, it order.Item, err error) error {
	if !errors.Is(err, errNoRow) {
		return err
	}
	if _, err := scanSKU(t.queryRow("GetSKU", it.SKU)); errors.Is(err, sql.ErrNoRows) {
		for i := range items {
			if items[i].SKU == it.SKU {
				return &coupon.InvalidError{Field: fmt.Sprintf("items[%d].sku", i), Reason: "no such SKU"}
			}
		}
	}
	return order.ErrInsufficientStock
}

// errNoRow: a guarded write changed nothing.
var errNoRow = errors.New("guarded write changed no row")

// moveStock runs one of the guarded stock moves (Reserve, Sell, Release).
func (t *tx) moveStock(query string, it order.Item, now time.Time) error {
	ok, err := t.execOne(query, it.SKU, it.Qty, ms(now))
	if err == nil && !ok {
		err = errNoRow
	}
	return err
}

// Order returns one order.
func (s *Store) Order(ctx context.Context, id string) (order.Order, error) {
	o, err := scanOrder(s.readRow(ctx, "GetOrder", id))
	return o, interpret(err)
}

// PayOrder pays an unpaid order, or records a late payment.
func (s *Store) PayOrder(ctx context.Context, p store.PayOrderParams) (order.Order, error) {
	o, err := inTx(ctx, s, func(t *tx) (order.Order, error) {
		o, err := scanOrder(t.queryRow("GetOrder", p.OrderID))
		if err != nil {
			return o, err
		}
		amount := p.Amount
		if p.Confirmed {
			amount = o.AmountDue
		}
		if err := order.CanPay(o, amount, p.Confirmed, p.Now); err != nil {
			return o, err
		}
		for _, it := range order.BySKU(o.Items) {
			if err := t.moveStock("Sell", it, p.Now); err != nil {
				return o, fmt.Errorf("sell %s: %w", it.SKU, err)
			}
		}
		for _, id := range o.CouponIDs {
			c, err := scanCoupon(t.queryRow("GetCoupon", id))
			if err != nil {
				return o, err
			}
			redeem := store.TransitionParams{CouponID: id, Action: coupon.Redeem, OrderID: o.ID, Reason: store.ReasonOrder, Now: p.Now}
			if _, err := t.transition(c, redeem); err != nil {
				return o, fmt.Errorf("redeem coupon %s: %w", id, err)
			}
		}
		o.PaymentID = p.PaymentID
		if _, err := t.touch(o.UserID, p.Now); err != nil {
			return o, err
		}
		return t.setOrderStatus(o, order.Paid, "", store.EventOrderPaid, p.Now)
	})
	if errors.Is(err, order.ErrClosed) {
		return o, s.recordLatePayment(ctx, p)
	}
	return o, err
}

// recordLatePayment writes the order.late_payment event of a refused
// payment in a transaction of its own, and returns order.ErrClosed.
func (s *Store) recordLatePayment(ctx context.Context, p store.PayOrderParams) error {
	_, err := inTx(store.WithoutIdempotency(ctx), s, func(t *tx) (struct{}, error) {
		o, err := scanOrder(t.queryRow("GetOrder", p.OrderID))
		if err != nil {
			return struct{}{}, err
		}
		return struct{}{}, t.eventOnce(store.LatePaymentEvent(o, p.PaymentID, p.Amount, p.Now))
	})
	return errors.Join(order.ErrClosed, err)
}

// CloseOrder closes an unpaid order for p.Reason.
func (s *Store) CloseOrder(ctx context.Context, p store.CloseOrderParams) (order.Order, error) {
	return inTx(ctx, s, func(t *tx) (order.Order, error) {
		o, err := scanOrder(t.queryRow("GetOrder", p.OrderID))
		if err != nil {
			return o, err
		}
		if err := order.CanClose(o, p.Reason, p.Now); err != nil {
			return o, err
		}
		if p.Reason == order.ReasonCancelled {
			if _, err := t.touch(o.UserID, p.Now); err != nil {
				return o, err
			}
		}
		return t.closeOrder(o, p.Reason, p.Now)
	})
}

// closeOrder gives back the order's stock and the coupons it still holds,
// then marks it closed.
func (t *tx) closeOrder(o order.Order, reason string, now time.Time) (order.Order, error) {
	for _, it := range order.BySKU(o.Items) {
		if err := t.moveStock("Release", it, now); err != nil {
			return o, fmt.Errorf("release %s: %w", it.SKU, err)
		}
	}
	for _, id := range o.CouponIDs {
		c, err := scanCoupon(t.queryRow("GetCoupon", id))
		if err != nil {
			return o, err
		}
		if c.Status != coupon.Locked || c.OrderID != o.ID {
			continue // its lock TTL already gave it back
		}
		unlock := store.TransitionParams{CouponID: id, Action: coupon.Unlock, OrderID: o.ID, Reason: store.ReasonOrderClosed, Now: now}
		if _, err := t.transition(c, unlock); err != nil {
			return o, fmt.Errorf("unlock coupon %s: %w", id, err)
		}
	}
	return t.setOrderStatus(o, order.Closed, reason, store.EventOrderClosed, now)
}

// setOrderStatus moves an unpaid order to status with a compare-and-set
// and writes its event.
func (t *tx) setOrderStatus(o order.Order, status order.Status, reason, eventType string, now time.Time) (order.Order, error) {
	ok, err := t.execOne("SetOrderStatus", status.String(), nullString(reason), nullString(o.PaymentID), ms(now), o.ID, o.Version)
	if err != nil || !ok {
		return o, orErr(err, order.ErrInvalidState)
	}
	next := o
	next.Status, next.CloseReason, next.UpdatedAt = status, reason, now
	next.Version++
	return next, t.event(store.OrderEvent(next, eventType, o.Status, reason, now))
}

// DueOrders lists unpaid orders past their deadline.
func (s *Store) DueOrders(ctx context.Context, p store.DueParams) (store.DueOrders, error) {
	var d store.DueOrders
	rows, err := s.read(ctx, "OrdersDue", ms(p.Now), p.Limit)
	if err != nil {
		return d, err
	}
	if d.Orders, err = scanOrders(rows); err != nil {
		return d, err
	}
	var next int64
	err = s.readRow(ctx, "DeadlineAfter", ms(p.Now)).Scan(&next)
	if errors.Is(err, sql.ErrNoRows) {
		return d, nil
	}
	d.Next = at(next)
	return d, err
}

// CloseDueOrders closes up to p.Limit orders past their deadline.
func (s *Store) CloseDueOrders(ctx context.Context, p store.DueParams) (store.Drained, error) {
	return inTx(ctx, s, func(t *tx) (store.Drained, error) {
		var d store.Drained
		rows, err := t.query("OrdersDue", ms(p.Now), p.Limit)
		if err != nil {
			return d, err
		}
		due, err := scanOrders(rows)
		if err != nil {
			return d, err
		}
		for _, o := range due {
			if _, err := t.closeOrder(o, order.ReasonTimeout, p.Now); err != nil {
				return d, fmt.Errorf("close order %s: %w", o.ID, err)
			}
			d.Due = append(d.Due, o.Deadline)
		}
		d.Next, err = t.next("NextDeadline")
		return d, err
	})
}

func scanSKU(row scanner) (store.SKU, error) {
	var k store.SKU
	err := row.Scan(&k.SKU, &k.Available, &k.Reserved, &k.Sold)
	return k, err
}

func scanOrders(rows *sql.Rows) ([]order.Order, error) {
	defer rows.Close()
	var out []order.Order
	for rows.Next() {
		o, err := scanOrder(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, rows.Err()
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
