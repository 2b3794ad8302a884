package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/storetype"
)

// locks checks every locked coupon against the order it is locked for:
// that order, if lapse knows it, is unpaid and lists the coupon. An
// order closes or is paid in the same transaction that gives back or
// redeems its coupons, so a coupon still locked, as read again after its
// order, is drift, not a transition under way.
func (r *reconciler) locks(ctx context.Context) error {
	p := driver.PageParams{At: time.Unix(0, 0).UTC(), Limit: r.p.Batch}
	return eachRow(ctx, r.db, p, driver.Executor.LockedPage, func(last coupon.Coupon, p *driver.PageParams) { p.At, p.After = last.LockedUntil, last.ID },
		func(c coupon.Coupon) error { return r.lock(ctx, c) })
}

// lock checks one locked coupon (see locks).
func (r *reconciler) lock(ctx context.Context, c coupon.Coupon) error {
	o, err := read(ctx, r.db, func(x driver.Executor) (order.Order, error) { return x.Order(ctx, driver.OrderParams{ID: c.OrderID}) })
	if errors.Is(err, storetype.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	act, why := lockRepair(c, o)
	if why == "" {
		return nil
	}
	again, err := read(ctx, r.db, func(x driver.Executor) (coupon.Coupon, error) { return x.Coupon(ctx, driver.CouponParams{ID: c.ID}) })
	if err != nil || again.Version != c.Version {
		return ignoreNotFound(err)
	}
	d := Drift{Check: CheckCouponLock, Subject: c.ID, Expected: 0, Actual: 1,
		Detail: fmt.Sprintf("locked for order %s, %s", o.ID, why)}
	return r.found(ctx, d, func(ctx context.Context) (bool, error) { return r.repairLock(ctx, c, act) })
}

// lockRepair says what is wrong with coupon c locked for order o, "" if
// nothing, and the action that repairs it: redeem if o is paid and lists
// c, else unlock.
func lockRepair(c coupon.Coupon, o order.Order) (coupon.Action, string) {
	lists := slices.Contains(o.CouponIDs, c.ID)
	switch {
	case !lists:
		return coupon.Unlock, "which does not list it"
	case o.Status == order.Paid:
		return coupon.Redeem, "which is paid"
	case o.Status == order.Closed:
		return coupon.Unlock, "which is closed"
	}
	return 0, ""
}

// repairLock gives back (or, for a paid order, redeems) coupon c, in one
// transaction that holds it and its order, by the usual transition and
// its event, with reason ReasonReconcile. It changes nothing, and says
// false, if either changed since the check read them.
func (r *reconciler) repairLock(ctx context.Context, seen coupon.Coupon, act coupon.Action) (bool, error) {
	return background(ctx, r.db, func(t *txn) (bool, error) {
		c, err := t.Coupon(t.ctx, driver.CouponParams{ID: seen.ID})
		if err != nil {
			return false, err
		}
		o, err := t.Order(t.ctx, driver.OrderParams{ID: c.OrderID})
		if err != nil {
			return false, ignoreNotFound(err)
		}
		if again, _ := lockRepair(c, o); c.Version != seen.Version || again != act {
			return false, nil
		}
		p := TransitionParams{CouponID: c.ID, Action: act, OrderID: c.OrderID, Reason: ReasonReconcile, Now: r.p.Now}
		_, err = transition(t, c, p)
		return err == nil, err
	})
}

// orderCoupons checks that every open order holds each coupon it lists
// locked, as long as the lock it took lasts (its deadline plus
// orderLockMargin; past that the lock's TTL may have given it back while
// the order waits to be closed). A payment or close changes the order in
// the transaction that moves its coupons, so an order still unpaid at the
// same version, read again after its coupon, confirms the drift. There is
// no repair: taking the coupon back could take it from an order that
// holds it now; an operator closes the order.
func (r *reconciler) orderCoupons(ctx context.Context) error {
	return r.pageOpenOrders(ctx, func(o order.Order) error {
		if !r.p.Now.Before(o.Deadline.Add(orderLockMargin)) {
			return nil
		}
		for _, id := range o.CouponIDs {
			c, err := read(ctx, r.db, func(x driver.Executor) (coupon.Coupon, error) { return x.Coupon(ctx, driver.CouponParams{ID: id}) })
			if err != nil && !errors.Is(err, storetype.ErrNotFound) {
				return err
			}
			if c.Status == coupon.Locked && c.OrderID == o.ID {
				continue
			}
			again, err := read(ctx, r.db, func(x driver.Executor) (order.Order, error) { return x.Order(ctx, driver.OrderParams{ID: o.ID}) })
			if err != nil || again.Version != o.Version {
				return ignoreNotFound(err)
			}
			d := Drift{Check: CheckOrderCoupon, Subject: o.ID, Expected: 1, Actual: 0,
				Detail: fmt.Sprintf("lists coupon %s, which is %s", id, couponHolder(c))}
			if err := r.found(ctx, d, nil); err != nil {
				return err
			}
		}
		return nil
	})
}

// finishedOrderCoupons checks that every paid order's coupons are used
// by it and that no closed order's coupon is. A paid or closed order
// changes no more, and its pay or close moved its coupons in its own
// transaction, so a coupon read after its order that disagrees with it
// is drift, not a transition under way. A coupon archived is read from
// the archive.
func (r *reconciler) finishedOrderCoupons(ctx context.Context) error {
	return eachRow(ctx, r.db, driver.PageParams{Limit: r.p.Batch}, driver.Executor.FinishedOrderPage, func(last order.Order, p *driver.PageParams) { p.After = last.ID },
		func(o order.Order) error { return r.finishedOrder(ctx, o) })
}

// finishedOrder checks the coupons of one paid or closed order (see
// finishedOrderCoupons).
func (r *reconciler) finishedOrder(ctx context.Context, o order.Order) error {
	for _, id := range o.CouponIDs {
		c, err := r.db.Coupon(ctx, id)
		if err != nil && !errors.Is(err, storetype.ErrNotFound) {
			return err
		}
		used := c.Status == coupon.Used && c.OrderID == o.ID
		if used == (o.Status == order.Paid) {
			continue
		}
		d := Drift{Check: CheckFinishedOrderCoupon, Subject: o.ID, Expected: 0, Actual: 1,
			Detail: fmt.Sprintf("%s, lists coupon %s, which is %s", o.Status, id, couponHolder(c))}
		if o.Status == order.Paid {
			d.Expected, d.Actual = 1, 0
		}
		if err := r.found(ctx, d, nil); err != nil {
			return err
		}
	}
	return nil
}

// couponHolder says what state coupon c is in, for a drift's detail.
func couponHolder(c coupon.Coupon) string {
	switch {
	case c.ID == "":
		return "missing"
	case c.Status == coupon.Locked:
		return "locked for order " + c.OrderID
	case c.Status == coupon.Used:
		return "used by order " + c.OrderID
	}
	return c.Status.String()
}

// ignoreNotFound returns err unless it is ErrNotFound.
func ignoreNotFound(err error) error {
	if errors.Is(err, storetype.ErrNotFound) {
		return nil
	}
	return err
}
