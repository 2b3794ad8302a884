package store

import (
	"errors"
	"fmt"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/storetype"
)

// createOrderIn locks coupons, stores the order and reserves stock, in
// t. The reservations are its last writes (the timer and the event wait
// in the driver's buffers for the commit), so that a SKU many orders
// want, a flash sale's, stays locked for as short a time as it can: from
// its guarded update to the commit.
func createOrderIn(t *txn, p CreateOrderParams) (order.Order, error) {
	o := order.Order{
		ID: NewID("ord", p.Now), UserID: p.UserID, Status: order.Unpaid,
		Items: p.Items, CouponIDs: append([]string{}, p.CouponIDs...), Total: order.Total(p.Items),
		Deadline: p.Deadline, CreatedAt: p.Now, UpdatedAt: p.Now, Version: 1,
	}
	values := make([]int64, len(p.CouponIDs))
	for i, id := range p.CouponIDs {
		c, err := t.Coupon(t.ctx, driver.CouponParams{ID: id})
		if errors.Is(err, storetype.ErrNotFound) {
			return o, &coupon.InvalidError{Field: fmt.Sprintf("coupon_ids[%d]", i), Reason: "no such coupon"}
		}
		if err != nil {
			return o, err
		}
		tp, err := t.Template(t.ctx, c.TemplateID)
		if err != nil {
			return o, err
		}
		if err := order.CheckCoupon(i, c, tp, p.UserID, o.Total); err != nil {
			return o, err
		}
		lock := TransitionParams{CouponID: id, Action: coupon.Lock, OrderID: o.ID, Reason: ReasonOrder,
			LockTTL: p.Deadline.Sub(p.Now) + orderLockMargin, Now: p.Now}
		if _, err := transition(t, c, lock); err != nil {
			return o, err
		}
		// After the lock, so that an expired coupon is refused as such.
		if err := order.CheckCouponDeadline(i, c, p.Deadline, p.MaxLockTTL); err != nil {
			return o, err
		}
		values[i] = tp.Value
	}
	o.Discount = order.Discount(o.Total, values)
	o.AmountDue = o.Total - o.Discount
	if err := t.InsertOrder(t.ctx, o); err != nil {
		return o, err
	}
	if err := t.Timer(storetype.TimerClose, o.Deadline); err != nil {
		return o, err
	}
	if err := t.TouchUser(t.ctx, driver.TouchUserParams{ID: o.UserID, Now: p.Now}); err != nil {
		return o, err
	}
	for _, it := range order.BySKU(p.Items) {
		if err := moveStock(t, Reserve, it, p.Now); err != nil {
			return o, stockError(p.Items, it, err)
		}
	}
	return o, t.Event(OrderEvent(o, EventOrderCreated, 0, "", p.Now))
}

// payOrderIn pays an unpaid order in t: its coupons become used and its
// reserved stock sold. A payment the order no longer takes is
// order.ErrClosed, as a RefusalError that records it as an
// order.late_payment event.
func payOrderIn(t *txn, p PayOrderParams) (order.Order, error) {
	o, err := t.Order(t.ctx, driver.OrderParams{ID: p.OrderID})
	if err != nil {
		return o, err
	}
	amount := p.Amount
	if p.Confirmed {
		amount = o.AmountDue
	}
	if err := order.CanPay(o, amount, p.Confirmed, p.Now); err != nil {
		if errors.Is(err, order.ErrClosed) {
			err = &refusalError{Err: err, Record: func(t *txn) error { return latePaymentIn(t, p) }}
		}
		return o, err
	}
	if err := t.TouchUser(t.ctx, driver.TouchUserParams{ID: o.UserID, Now: p.Now}); err != nil {
		return o, err
	}
	for _, id := range o.CouponIDs {
		c, err := t.Coupon(t.ctx, driver.CouponParams{ID: id})
		if err != nil {
			return o, err
		}
		redeem := TransitionParams{CouponID: id, Action: coupon.Redeem, OrderID: o.ID, Reason: ReasonOrder, Now: p.Now}
		if _, err := transition(t, c, redeem); err != nil {
			return o, fmt.Errorf("redeem coupon %s: %w", id, err)
		}
	}
	for _, it := range order.BySKU(o.Items) {
		if err := moveStock(t, Sell, it, p.Now); err != nil {
			return o, fmt.Errorf("sell %s: %w", it.SKU, err)
		}
	}
	o.PaymentID = p.PaymentID
	return setOrderStatus(t, o, order.Paid, "", EventOrderPaid, p.Now)
}

// latePaymentIn writes, in t, the order.late_payment event of a payment
// payOrderIn refused with order.ErrClosed, once however often it is
// retried.
func latePaymentIn(t *txn, p PayOrderParams) error {
	o, err := t.Order(t.ctx, driver.OrderParams{ID: p.OrderID})
	if err != nil {
		return err
	}
	return t.EventOnce(LatePaymentEvent(o, p.PaymentID, p.Amount, p.Now))
}

// closeOrderIn closes an unpaid order in t for p.Reason: the batch close
// of one (see closeOrders).
func closeOrderIn(t *txn, p CloseOrderParams) (order.Order, error) {
	o, err := t.Order(t.ctx, driver.OrderParams{ID: p.OrderID})
	if err != nil {
		return o, err
	}
	if p.Reason == order.ReasonCancelled {
		if err := t.TouchUser(t.ctx, driver.TouchUserParams{ID: o.UserID, Now: p.Now}); err != nil {
			return o, err
		}
	}
	closed, err := closeOrders(t, []order.Order{o}, p.Reason, p.Now)
	if err != nil {
		return o, err
	}
	return closed[0], nil
}

// closeDueIn closes on timeout, in t, unpaid orders OrdersDue found
// past their deadline at now, as one batch (see closeOrders). It
// returns their due times.
func closeDueIn(t *txn, due []order.Order, now time.Time) ([]time.Time, error) {
	if _, err := closeOrders(t, due, order.ReasonTimeout, now); err != nil {
		return nil, fmt.Errorf("close %d orders: %w", len(due), err)
	}
	deadlines := make([]time.Time, len(due))
	for i, o := range due {
		deadlines[i] = o.Deadline
	}
	return deadlines, nil
}

// setOrderStatus moves an unpaid order to status with a compare-and-set
// and writes its event.
func setOrderStatus(t *txn, o order.Order, status order.Status, reason, eventType string, now time.Time) (order.Order, error) {
	next := moved(o, status, reason, now)
	if ok, err := t.SetOrder(t.ctx, driver.SetOrderParams{From: o, Next: next}); err != nil || !ok {
		return o, orErr(err, order.ErrInvalidState)
	}
	return next, t.Event(OrderEvent(next, eventType, o.Status, reason, now))
}

// moved is o as a move to status for reason at now stores it.
func moved(o order.Order, status order.Status, reason string, now time.Time) order.Order {
	o.Status, o.CloseReason, o.UpdatedAt = status, reason, now
	o.Version++
	return o
}
