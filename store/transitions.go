package store

import (
	"cmp"
	"context"
	"errors"
	"maps"
	"slices"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/remind"
	"github.com/lapsehq/lapse/storetype"
)

// claimIn issues one coupon of p.TemplateID to p.UserID in t.
func claimIn(t *txn, p ClaimParams) (coupon.Coupon, error) {
	tp, err := t.ClaimTemplate(t.ctx, p.TemplateID)
	if err != nil {
		return coupon.Coupon{}, err
	}
	if err := tp.Claimable(p.Now); err != nil {
		return coupon.Coupon{}, err
	}
	if tp.PerUserLimit > 0 {
		held, err := t.HeldCounts(t.ctx, driver.HeldCountsParams{TemplateID: p.TemplateID, Users: []string{p.UserID}})
		if err != nil {
			return coupon.Coupon{}, err
		}
		if held[p.UserID] >= tp.PerUserLimit {
			return coupon.Coupon{}, coupon.ErrLimitReached
		}
	}
	if ok, err := t.TakeIssues(t.ctx, driver.TakeIssuesParams{TemplateID: p.TemplateID, N: 1}); err != nil || !ok {
		return coupon.Coupon{}, orErr(err, coupon.ErrSoldOut)
	}
	c := claimed(tp, NewID("cpn", p.Now), p.UserID, p.Now)
	if err := insertClaimed(t, []coupon.Coupon{c}); err != nil {
		return c, err
	}
	if err := t.Count(t.ctx, driver.CountParams{TemplateID: c.TemplateID, State: coupon.Unused, N: 1}); err != nil {
		return c, err
	}
	if err := t.TouchUser(t.ctx, driver.TouchUserParams{ID: p.UserID, Now: p.Now}); err != nil {
		return c, err
	}
	if err := t.plan(c, tp, true, p.Now); err != nil {
		return c, err
	}
	return c, t.Timer(storetype.TimerExpire, c.ExpiresAt)
}

// claimed is coupon id of tp as claimed by user at now.
func claimed(tp coupon.Template, id, user string, now time.Time) coupon.Coupon {
	return coupon.Coupon{
		ID: id, TemplateID: tp.ID, UserID: user, Status: coupon.Unused,
		ClaimedAt: now, ExpiresAt: tp.ExpiresAt(now), UpdatedAt: now, Version: 1,
	}
}

// insertClaimed stores new coupons of one template, claimed at one
// instant, with their coupon.claimed events.
func insertClaimed(t *txn, cs []coupon.Coupon) error {
	if err := t.InsertClaimed(t.ctx, cs); err != nil {
		return err
	}
	return t.CouponEvents(claimedEvents(cs))
}

// transitionIn applies p.Action to coupon p.CouponID in t: a wallet
// route's transition, asked for an order of an outside order system.
//
// An order_id that names a lapse order (a row of the orders table,
// created by CreateOrder) is refused with ErrLapseOrder, whatever the
// action: the coupons a lapse order holds move only with it (its pay
// redeems them, its close or cancel gives them back), so a wallet lock,
// unlock, redeem or refund for it would leave the coupon and the order
// out of step (a coupon used by an order that times out, a paid order's
// coupon unused again for a second order). That covers every coupon a
// lapse order holds: the coupon table lets an action on a locked or used
// coupon come only from the order that holds it. The order is read, and
// held, before the coupon, in the order its pay and close take them.
func transitionIn(t *txn, p TransitionParams) (coupon.Coupon, error) {
	if p.OrderID != "" {
		_, err := t.Order(t.ctx, driver.OrderParams{ID: p.OrderID})
		if err == nil {
			return coupon.Coupon{}, ErrLapseOrder
		}
		if !errors.Is(err, storetype.ErrNotFound) {
			return coupon.Coupon{}, err
		}
	}
	c, err := t.Coupon(t.ctx, driver.CouponParams{ID: p.CouponID})
	if err != nil {
		return c, err
	}
	next, err := transition(t, c, p)
	if err == nil && remind.ByUser(p.Action) {
		err = t.TouchUser(t.ctx, driver.TouchUserParams{ID: c.UserID, Now: p.Now})
	}
	return next, err
}

// transition moves c, as read in t, as p asks: decided by the coupon
// table, stored by a compare-and-set, with its counts, timers and event.
func transition(t *txn, c coupon.Coupon, p TransitionParams) (coupon.Coupon, error) {
	to, err := coupon.Decide(c, p.Action, p.OrderID, p.Now)
	if err != nil {
		return c, err
	}
	actor := t.actor
	if (c.Status == coupon.Locked || c.Status == coupon.Used) && to != coupon.Used {
		// A lock or a use ends: an operation may have marked the coupon,
		// while it was locked, to be voided then, in place of coming
		// back unused. The mark outlives a redeem, which the lock taken
		// in time honours, so that the refund that follows voids it: an
		// operator's void is never escaped by a redeem and a refund.
		pv, ok, err := t.TakePendingVoid(t.ctx, c.ID)
		if err != nil {
			return c, err
		}
		if ok && to == coupon.Unused {
			to, p.Reason, p.Operation, actor = coupon.Voided, cmp.Or(pv.Reason, coupon.Void.String()), pv.Operation, pv.Actor
		}
	}
	next := apply(c, to, p)
	if ok, err := t.SetCoupon(t.ctx, driver.SetCouponParams{From: c, Next: next}); err != nil || !ok {
		return c, orErr(err, coupon.ErrInvalidState)
	}
	if err := moveCounts(t.ctx, t, map[string]int64{c.TemplateID: 1}, c.Status, to); err != nil {
		return c, err
	}
	switch to {
	case coupon.Locked:
		err = t.Timer(storetype.TimerRelease, next.LockedUntil)
	case coupon.Unused:
		err = t.Timer(storetype.TimerExpire, next.ExpiresAt)
	}
	if err == nil {
		err = t.replan(next, p.Now)
	}
	if err != nil {
		return c, err
	}
	reason := p.Reason
	if reason == "" {
		reason = p.Action.String()
	}
	orderID := p.OrderID
	if orderID == "" {
		orderID = c.OrderID
	}
	e := CouponEvent(next, CouponEventType(p.Action, to), c.Status, reason, orderID, p.Now)
	if p.Operation != "" {
		e = withOperation(e, p.Operation)
	}
	return next, t.eventBy(actor, e)
}

// expiredIn writes, in t, what goes with coupons ExpireDue has just moved
// from unused to expired at now: an event each and the counts. It returns
// their due times.
func expiredIn(t *txn, expired []coupon.Coupon, now time.Time) ([]time.Time, error) {
	if len(expired) == 0 {
		return nil, nil
	}
	if err := t.CouponEvents(expiredEvents(expired, now)); err != nil {
		return nil, err
	}
	due := make([]time.Time, len(expired))
	perTemplate := map[string]int64{}
	for i, c := range expired {
		perTemplate[c.TemplateID]++
		due[i] = c.ExpiresAt
	}
	return due, moveCounts(t.ctx, t, perTemplate, coupon.Unused, coupon.Expired)
}

// releaseIn gives back, in t, locked coupons whose lock TTL passed by now,
// each to unused or, past its expires_at, to expired. It returns their
// due times.
func releaseIn(t *txn, locked []coupon.Coupon, now time.Time) ([]time.Time, error) {
	var due []time.Time
	for _, c := range locked {
		p := TransitionParams{CouponID: c.ID, Action: coupon.Release, Reason: ReasonLockTTL, Now: now}
		if _, err := transition(t, c, p); err != nil {
			return nil, err
		}
		due = append(due, c.LockedUntil)
	}
	return due, nil
}

// moveCounts moves, with x (a write transaction's executor), n coupons
// per template from one state's count to another's, templates in order.
func moveCounts(ctx context.Context, x driver.Executor, perTemplate map[string]int64, from, to coupon.State) error {
	for _, id := range slices.Sorted(maps.Keys(perTemplate)) {
		if err := x.Count(ctx, driver.CountParams{TemplateID: id, State: from, N: -perTemplate[id]}); err != nil {
			return err
		}
		if err := x.Count(ctx, driver.CountParams{TemplateID: id, State: to, N: perTemplate[id]}); err != nil {
			return err
		}
	}
	return nil
}
