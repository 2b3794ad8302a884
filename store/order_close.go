package store

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/storetype"
)

// closeOrders closes unpaid orders os in t for reason, set by set: the
// coupons they still hold go back in one statement per state they move
// to, their units in one move per SKU, and the orders close in one
// statement, each with its order.closed event and each coupon with its
// own, as closing them one at a time would. An order it may not close
// (order.CanClose: paid, closed, or a timeout before its deadline) fails
// them all, so a close is never early. It returns the orders as closed.
func closeOrders(t *txn, os []order.Order, reason string, now time.Time) ([]order.Order, error) {
	ids := make([]string, len(os))
	for i, o := range os {
		if err := order.CanClose(o, reason, now); err != nil {
			return nil, err
		}
		ids[i] = o.ID
	}
	if len(os) == 0 {
		return nil, nil
	}
	if err := giveBackCoupons(t, os, now); err != nil {
		return nil, err
	}
	if err := releaseStock(t, os, now); err != nil {
		return nil, err
	}
	n, err := t.CloseOrders(t.ctx, driver.CloseOrdersParams{IDs: ids, Reason: reason, Now: now})
	if err != nil || n != int64(len(os)) {
		return nil, orErr(err, order.ErrInvalidState)
	}
	closed := make([]order.Order, len(os))
	for i, o := range os {
		closed[i] = moved(o, order.Closed, reason, now)
		if err := t.Event(OrderEvent(closed[i], EventOrderClosed, o.Status, reason, now)); err != nil {
			return nil, err
		}
	}
	return closed, nil
}

// releaseStock gives back the units orders os reserved: one move (see
// moveStock) of each SKU's sum over them, SKUs in order.
func releaseStock(t *txn, os []order.Order, now time.Time) error {
	qty := map[string]int64{}
	for _, o := range os {
		for _, it := range o.Items {
			qty[it.SKU] += it.Qty
		}
	}
	for _, sku := range slices.Sorted(maps.Keys(qty)) {
		if err := moveStock(t, Release, order.Item{SKU: sku, Qty: qty[sku]}, now); err != nil {
			return fmt.Errorf("release %s: %w", sku, err)
		}
	}
	return nil
}

// giveBackCoupons unlocks, for reason order_closed, the coupons orders os
// still hold (one whose lock TTL already gave it back is left as it is):
// those an operation marked to be voided one at a time by transition,
// the others in one statement per state they move to, as transition
// moves each.
func giveBackCoupons(t *txn, os []order.Order, now time.Time) error {
	holder := map[string]string{}
	for _, o := range os {
		for _, id := range o.CouponIDs {
			holder[id] = o.ID
		}
	}
	if len(holder) == 0 {
		return nil
	}
	cs, err := t.LockCoupons(t.ctx, slices.Sorted(maps.Keys(holder)))
	if err != nil {
		return err
	}
	cs = slices.DeleteFunc(cs, func(c coupon.Coupon) bool { return c.Status != coupon.Locked || c.OrderID != holder[c.ID] })
	if len(cs) == 0 {
		return nil
	}
	marked, err := t.PendingVoids(t.ctx, couponIDs(cs))
	if err != nil {
		return err
	}
	byState := map[coupon.State][]coupon.Coupon{}
	for _, c := range cs {
		if slices.Contains(marked, c.ID) {
			if _, err := transition(t, c, unlockParams(c, now)); err != nil {
				return fmt.Errorf("unlock coupon %s: %w", c.ID, err)
			}
			continue
		}
		to, err := coupon.Decide(c, coupon.Unlock, c.OrderID, now)
		if err != nil {
			return fmt.Errorf("unlock coupon %s: %w", c.ID, err)
		}
		byState[to] = append(byState[to], c)
	}
	for _, to := range slices.Sorted(maps.Keys(byState)) {
		if err := unlockAll(t, byState[to], to, now); err != nil {
			return err
		}
	}
	return nil
}

// unlockParams is the unlock of c, locked by its order, as that order
// closes at now.
func unlockParams(c coupon.Coupon, now time.Time) TransitionParams {
	return TransitionParams{CouponID: c.ID, Action: coupon.Unlock, OrderID: c.OrderID, Reason: ReasonOrderClosed, Now: now}
}

// unlockAll moves cs, locked coupons t holds, to state to in one
// statement, with what transition writes with each: the counts, the
// expiry timer and reminders of a coupon back to unused, an event each.
func unlockAll(t *txn, cs []coupon.Coupon, to coupon.State, now time.Time) error {
	n, err := t.UnlockCoupons(t.ctx, driver.UnlockCouponsParams{IDs: couponIDs(cs), To: to, Now: now})
	if err != nil || n != int64(len(cs)) {
		return orErr(err, coupon.ErrInvalidState)
	}
	perTemplate := map[string]int64{}
	templates := map[string]coupon.Template{}
	for _, c := range cs {
		perTemplate[c.TemplateID]++
		p := unlockParams(c, now)
		next := apply(c, to, p)
		if to == coupon.Unused {
			if err := replanUnused(t, next, templates, now); err != nil {
				return err
			}
		}
		if err := t.Event(CouponEvent(next, CouponEventType(p.Action, to), c.Status, p.Reason, p.OrderID, now)); err != nil {
			return err
		}
	}
	return moveCounts(t.ctx, t, perTemplate, coupon.Locked, to)
}

// replanUnused writes the expiry timer of c, just back to unused, and
// plans its reminders again (see replan), reading its template once per
// batch: templates holds those read.
func replanUnused(t *txn, c coupon.Coupon, templates map[string]coupon.Template, now time.Time) error {
	if err := t.Timer(storetype.TimerExpire, c.ExpiresAt); err != nil {
		return err
	}
	tp, ok := templates[c.TemplateID]
	if !ok {
		var err error
		if tp, err = t.Template(t.ctx, c.TemplateID); err != nil {
			return err
		}
		templates[c.TemplateID] = tp
	}
	return t.plan(c, tp, false, now)
}
