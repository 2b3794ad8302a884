package storetest

import (
	stdmaps "maps"
	"testing"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// reconcileTests test reconciliation: drift is made by writing the tables
// through the driver's own transactions, past the service's rules.
func reconcileTests(newDriver NewDriver) []test {
	return driverTests(newDriver, newReconcileFixture, []driverCase[*reconcileFixture]{
		{"Clean", testReconcileClean},
		{"StockReserved", testReconcileStockReserved},
		{"StockTotal", testReconcileStockTotal},
		{"StockNegative", testReconcileStockNegative},
		{"LockOfClosedOrder", testReconcileLockClosed},
		{"LockOfPaidOrder", testReconcileLockPaid},
		{"OrderCoupon", testReconcileOrderCoupon},
		{"FinishedOrderCoupon", testReconcileFinishedOrderCoupon},
		{"Timers", testReconcileTimers},
	})
}

// newReconcileFixture is the order fixture of t over d, its tables
// written raw through d.
func newReconcileFixture(t *testing.T, d driver.Driver) *reconcileFixture {
	of := newOrderFixture(t, overDriver(d))
	return &reconcileFixture{orderFixture: of, raw: &rowsFixture{fixture: of.fixture, d: d}}
}

// reconcileFixture is an order fixture whose tables a test can also
// write through the driver (raw).
type reconcileFixture struct {
	*orderFixture
	raw *rowsFixture
}

// reconcileAt is when the tests reconcile: after the fixture's orders
// are created, before their deadline.
var reconcileAt = t0.Add(time.Minute)

// reconcile runs Reconcile in pages of 2 rows, so that every check turns
// pages, and checks that it counted what it listed.
func (f *reconcileFixture) reconcile(repair bool) store.Reconciliation {
	f.t.Helper()
	r, err := f.s.Reconcile(f.ctx, store.ReconcileParams{Repair: repair, Batch: 2, Now: reconcileAt})
	if err != nil {
		f.t.Fatalf("Reconcile(repair %v): %v", repair, err)
	}
	listed := map[string]int64{}
	for _, d := range r.Drift {
		listed[d.Check]++
	}
	for _, c := range store.Checks {
		if listed[c] != r.Counts[c] {
			f.t.Fatalf("Reconcile: %d drifts of %s listed, %d counted: %+v", listed[c], c, r.Counts[c], r.Drift)
		}
	}
	return r
}

// wantDrift checks the drift counts of r: those of want, zero for every
// other check.
func (f *reconcileFixture) wantDrift(what string, r store.Reconciliation, want map[string]int64) {
	f.t.Helper()
	all := map[string]int64{}
	for _, c := range store.Checks {
		all[c] = want[c]
	}
	if !stdmaps.Equal(r.Counts, all) {
		f.t.Fatalf("%s: drift counts %v, want %v; drift %+v", what, r.Counts, all, r.Drift)
	}
}

// drift returns r's one drift of check.
func (f *reconcileFixture) drift(r store.Reconciliation, check string) store.Drift {
	f.t.Helper()
	for _, d := range r.Drift {
		if d.Check == check {
			return d
		}
	}
	f.t.Fatalf("no %s drift in %+v", check, r.Drift)
	return store.Drift{}
}

// repair repairs, wants every drift it found repaired, one event of each
// type of want per subject after it and no other event, and a clean store
// after.
func (f *reconcileFixture) repair(found map[string]int64, want map[string]string) {
	f.t.Helper()
	cursor := f.cursor()
	r := f.reconcile(true)
	f.wantDrift("repair run", r, found)
	for _, d := range r.Drift {
		if !d.Repairable || !d.Repaired {
			f.t.Fatalf("repair: %+v not repaired", d)
		}
	}
	got := map[string]string{}
	for _, e := range f.eventsAfter(cursor) {
		if _, dup := got[e.Subject]; dup {
			f.t.Fatalf("repair: a second event about %s: %+v", e.Subject, e)
		}
		got[e.Subject] = e.Type
	}
	if !stdmaps.Equal(got, want) {
		f.t.Fatalf("repair events (subject: type): got %v, want %v", got, want)
	}
	f.wantDrift("after repair", f.reconcile(false), nil)
}

// addStock adds d's amounts to bucket 0 of sku, past every rule.
func (f *reconcileFixture) addStock(sku string, available, reserved int64) {
	f.t.Helper()
	f.raw.tx(func(tx driver.Executor) {
		d := driver.StockDelta{SKU: sku, Buckets: 1, Available: available, Reserved: reserved, Now: t0}
		ok, err := tx.AddStock(f.ctx, d)
		f.raw.ok("AddStock", err)
		if !ok {
			f.t.Fatalf("AddStock %+v changed nothing", d)
		}
	})
}

// setOrder moves an unpaid order to status, past every rule: its coupons
// and stock stay as they are.
func (f *reconcileFixture) setOrder(o order.Order, status order.Status) {
	f.t.Helper()
	next := o
	next.Status = status
	if status == order.Closed {
		next.CloseReason = order.ReasonCancelled
	}
	f.raw.tx(func(tx driver.Executor) {
		ok, err := tx.SetOrder(f.ctx, driver.SetOrderParams{From: o, Next: next})
		f.raw.ok("SetOrder", err)
		if !ok {
			f.t.Fatalf("SetOrder %s changed nothing", o.ID)
		}
	})
}

// setCoupons stores each of nexts over the coupon of its ID as read now,
// past every rule.
func (f *reconcileFixture) setCoupons(nexts ...coupon.Coupon) {
	f.t.Helper()
	f.raw.tx(func(tx driver.Executor) {
		for _, next := range nexts {
			ok, err := tx.SetCoupon(f.ctx, driver.SetCouponParams{From: f.coupon(next.ID), Next: next})
			f.raw.ok("SetCoupon", err)
			if !ok {
				f.t.Fatalf("SetCoupon %s changed nothing", next.ID)
			}
		}
	})
}

// testReconcileClean: a store in step, with open, paid and cancelled
// orders, a lock of an outside order and more SKUs than a page, shows no
// drift, and a repair run writes nothing.
func testReconcileClean(f *reconcileFixture) {
	for _, sku := range []string{"fig", "kiwi", "lime"} {
		f.putSKU(sku, 4)
	}
	cs := make([]coupon.Coupon, 4)
	for i := range cs {
		cs[i] = f.claim(f.tpl.ID, buyer, t0)
	}
	f.create(cs[0].ID)
	paid := f.create(cs[1].ID)
	if _, err := f.s.PayOrder(f.ctx, store.PayOrderParams{OrderID: paid.ID, PaymentID: "pay-1", Amount: paid.AmountDue, Now: t0}); err != nil {
		f.t.Fatalf("PayOrder: %v", err)
	}
	cancelled := f.create(cs[2].ID)
	if _, err := f.s.CloseOrder(f.ctx, store.CloseOrderParams{OrderID: cancelled.ID, Reason: order.ReasonCancelled, Now: t0}); err != nil {
		f.t.Fatalf("CloseOrder: %v", err)
	}
	f.create()
	f.do(cs[3].ID, store.TransitionParams{Action: coupon.Lock, OrderID: "outside-order", LockTTL: 10 * time.Minute, Now: t0})
	f.wantDrift("clean store", f.reconcile(false), nil)
	cursor := f.cursor()
	f.wantDrift("clean store, repairing", f.reconcile(true), nil)
	f.wantNoneAfter("events of a repair of a clean store", cursor)
}

// testReconcileStockReserved: a SKU's reserved short of its open orders
// is drift, and the repair sets it from them, available giving way.
func testReconcileStockReserved(f *reconcileFixture) {
	f.create()
	f.create()
	f.addStock(sku1, 2, -2)
	r := f.reconcile(false)
	f.wantDrift("reserved short", r, map[string]int64{store.CheckStockReserved: 1})
	if d := f.drift(r, store.CheckStockReserved); d.Subject != sku1 || d.Expected != 6 || d.Actual != 4 {
		f.t.Fatalf("reserved short: got %+v, want %s expected 6 actual 4", d, sku1)
	}
	f.wantSKU("before the repair", sku1, 6, 4, 0)
	f.repair(map[string]int64{store.CheckStockReserved: 1}, map[string]string{sku1: store.EventStockRepaired})
	f.wantSKU("after the repair", sku1, 4, 6, 0)
}

// testReconcileStockTotal: counters that add up to more than the stock
// put are drift; the repair gives available what the stock leaves.
func testReconcileStockTotal(f *reconcileFixture) {
	f.addStock(sku2, 4, 0)
	r := f.reconcile(false)
	f.wantDrift("stock grown", r, map[string]int64{store.CheckStockTotal: 1})
	if d := f.drift(r, store.CheckStockTotal); d.Subject != sku2 || d.Expected != 5 || d.Actual != 9 {
		f.t.Fatalf("stock grown: got %+v, want %s expected 5 actual 9", d, sku2)
	}
	f.repair(map[string]int64{store.CheckStockTotal: 1}, map[string]string{sku2: store.EventStockRepaired})
	f.wantSKU("after the repair", sku2, 5, 0, 0)
}

// testReconcileStockNegative: a SKU's reserved below zero is drift of two
// checks, repaired by one rewrite with one event.
func testReconcileStockNegative(f *reconcileFixture) {
	f.addStock(sku2, 2, -2)
	found := map[string]int64{store.CheckStockNegative: 1, store.CheckStockReserved: 1}
	r := f.reconcile(false)
	f.wantDrift("reserved below zero", r, found)
	if d := f.drift(r, store.CheckStockNegative); d.Subject != sku2 || d.Actual != -2 {
		f.t.Fatalf("reserved below zero: got %+v, want %s actual -2", d, sku2)
	}
	f.repair(found, map[string]string{sku2: store.EventStockRepaired})
	f.wantSKU("after the repair", sku2, 5, 0, 0)
}

// testReconcileLockClosed: an order closed without giving back its coupon
// and stock leaves a coupon locked for a closed order; the repair unlocks
// it by the usual transition, and releases the stock.
func testReconcileLockClosed(f *reconcileFixture) {
	c := f.claim(f.tpl.ID, buyer, t0)
	f.setOrder(f.create(c.ID), order.Closed)
	found := map[string]int64{store.CheckCouponLock: 1, store.CheckStockReserved: 1}
	r := f.reconcile(false)
	f.wantDrift("closed order's lock", r, found)
	if d := f.drift(r, store.CheckCouponLock); d.Subject != c.ID {
		f.t.Fatalf("closed order's lock: got %+v, want subject %s", d, c.ID)
	}
	f.repair(found, map[string]string{c.ID: store.EventCouponUnlocked, sku1: store.EventStockRepaired})
	if got := f.coupon(c.ID); got.Status != coupon.Unused || got.OrderID != "" {
		f.t.Fatalf("after the repair: coupon %+v, want unused with no order", got)
	}
	es := f.eventsOfType(c.ID, store.EventCouponUnlocked)
	if len(es) != 1 || f.data(es[0]).Reason != store.ReasonReconcile {
		f.t.Fatalf("unlock events: got %+v, want one with reason %s", es, store.ReasonReconcile)
	}
	f.wantSKU("after the repair", sku1, 10, 0, 0)
}

// testReconcileLockPaid: a coupon still locked for a paid order is
// redeemed for it.
func testReconcileLockPaid(f *reconcileFixture) {
	c := f.claim(f.tpl.ID, buyer, t0)
	f.setOrder(f.create(c.ID), order.Paid)
	r := f.reconcile(true)
	if d := f.drift(r, store.CheckCouponLock); d.Subject != c.ID || !d.Repaired {
		f.t.Fatalf("paid order's lock: got %+v, want %s repaired", d, c.ID)
	}
	if got := f.coupon(c.ID); got.Status != coupon.Used {
		f.t.Fatalf("after the repair: coupon %+v, want used", got)
	}
	if es := f.eventsOfType(c.ID, store.EventCouponRedeemed); len(es) != 1 {
		f.t.Fatalf("redeem events: got %+v, want one", es)
	}
	f.wantDrift("after the repair", f.reconcile(false), nil)
}

// testReconcileOrderCoupon: an open order whose coupon was given back
// under it is drift that a repair leaves to an operator.
func testReconcileOrderCoupon(f *reconcileFixture) {
	c := f.claim(f.tpl.ID, buyer, t0)
	o := f.create(c.ID)
	next := f.coupon(c.ID)
	next.Status, next.OrderID, next.LockedUntil = coupon.Unused, "", time.Time{}
	f.setCoupons(next)
	found := map[string]int64{store.CheckOrderCoupon: 1}
	f.wantDrift("order's coupon unlocked", f.reconcile(false), found)
	cursor := f.cursor()
	r := f.reconcile(true)
	f.wantDrift("repair run", r, found)
	if d := f.drift(r, store.CheckOrderCoupon); d.Subject != o.ID || d.Repairable || d.Repaired {
		f.t.Fatalf("order's coupon unlocked: got %+v, want %s, not repairable", d, o.ID)
	}
	f.wantNoneAfter("events of the repair run", cursor)
}

// testReconcileFinishedOrderCoupon: a paid order whose coupon was given
// back under it (as a wallet refund did), and a closed order whose
// coupon was used for it (as a wallet redeem for it did before its
// timeout), are drift that a repair leaves to an operator.
func testReconcileFinishedOrderCoupon(f *reconcileFixture) {
	c1, c2 := f.claim(f.tpl.ID, buyer, t0), f.claim(f.tpl.ID, buyer, t0)
	paid, closed := f.create(c1.ID), f.create(c2.ID)
	if _, err := f.s.PayOrder(f.ctx, store.PayOrderParams{OrderID: paid.ID, PaymentID: "pay-1", Amount: paid.AmountDue, Now: t0}); err != nil {
		f.t.Fatalf("PayOrder: %v", err)
	}
	if _, err := f.s.CloseOrder(f.ctx, store.CloseOrderParams{OrderID: closed.ID, Reason: order.ReasonCancelled, Now: t0}); err != nil {
		f.t.Fatalf("CloseOrder: %v", err)
	}
	refunded, used := f.coupon(c1.ID), f.coupon(c2.ID)
	refunded.Status, refunded.OrderID = coupon.Unused, ""
	used.Status, used.OrderID = coupon.Used, closed.ID
	f.setCoupons(refunded, used)
	found := map[string]int64{store.CheckFinishedOrderCoupon: 2}
	f.wantDrift("finished orders' coupons moved", f.reconcile(false), found)
	cursor := f.cursor()
	r := f.reconcile(true)
	f.wantDrift("repair run", r, found)
	for _, d := range r.Drift {
		want := store.Drift{Check: store.CheckFinishedOrderCoupon, Subject: paid.ID, Expected: 1, Actual: 0}
		if d.Subject == closed.ID {
			want.Subject, want.Expected, want.Actual = closed.ID, 0, 1
		}
		if d.Check != want.Check || d.Subject != want.Subject || d.Expected != want.Expected || d.Actual != want.Actual || d.Repairable || d.Repaired {
			f.t.Fatalf("drift: got %+v, want %+v, not repairable", d, want)
		}
	}
	f.wantNoneAfter("events of the repair run", cursor)
}

// testReconcileTimers: pending coupons whose group timers are gone are
// drift, one per bucket, and the repair puts the timers back.
func testReconcileTimers(f *reconcileFixture) {
	c := f.claim(f.tpl.ID, buyer, t0)
	f.claim(f.tpl.ID, buyer, t0)
	f.create(c.ID)
	coupons := func() []storetype.Timer {
		var out []storetype.Timer
		for _, tm := range f.timers() {
			if tm.Kind == storetype.TimerExpire || tm.Kind == storetype.TimerRelease {
				out = append(out, tm)
			}
		}
		return out
	}
	want := coupons()
	f.raw.tx(func(tx driver.Executor) {
		for _, kind := range []storetype.TimerKind{storetype.TimerExpire, storetype.TimerRelease} {
			f.raw.ok("DeleteTimers", tx.DeleteTimers(f.ctx, driver.DeleteTimersParams{Kind: kind, Through: farFuture}))
		}
	})
	expire := storetype.Timer{Kind: storetype.TimerExpire, Due: storetype.BucketOf(c.ExpiresAt)}
	release := storetype.Timer{Kind: storetype.TimerRelease, Due: storetype.BucketOf(f.coupon(c.ID).LockedUntil)}
	found := map[string]int64{store.CheckTimer: 2}
	f.wantDrift("timers gone", f.reconcile(false), found)
	subject := func(tm storetype.Timer) string {
		return string(tm.Kind) + "@" + tm.Due.UTC().Format(storetype.TimeFormat)
	}
	f.repair(found, map[string]string{subject(expire): store.EventTimerRepaired, subject(release): store.EventTimerRepaired})
	f.wantTimers("after the repair", coupons(), want)
}
