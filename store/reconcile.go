package store

import (
	"context"
	"time"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/order"
)

// Reconciliation checks that what the store keeps in step by its
// transactions is in step: stock counters, open orders, coupon locks and
// group timers. Each check pages through its table by key, ReconcileBatch
// rows a read, so that a read costs a batch however big the table:
//
//   - stock: SKUs by SKU (sums over their buckets), against the stock last
//     put and what the open orders hold (the open orders are read twice,
//     by deadline and ID, into a count per SKU: memory grows with the SKUs
//     open orders name, not with the orders);
//   - coupon locks: locked coupons by lock TTL and ID, each with its order;
//   - order coupons: open orders by deadline and ID, each with its coupons;
//   - finished order coupons: paid and closed orders by ID, each with its
//     coupons (the orders of the hot table: archived ones are not read);
//   - timers: the due times of pending coupons from now on, one index seek
//     per group timer bucket that has any (a loose index scan).
//
// The reads are not one snapshot, so each drift is confirmed by a second
// read that a concurrent transition would have changed (see each check),
// and a repair checks again, in its transaction, under the rows' locks.

// The checks, as Drift.Check names them.
const (
	// CheckStockTotal: a SKU's available + reserved + sold is not the
	// stock last put.
	CheckStockTotal = "stock-total"
	// CheckStockNegative: a SKU's summed counter is below zero.
	CheckStockNegative = "stock-negative"
	// CheckStockReserved: a SKU's reserved is not what its open orders
	// hold.
	CheckStockReserved = "stock-reserved"
	// CheckCouponLock: a coupon is locked for a lapse order that is paid,
	// closed, or does not list it. A lock for an order ID lapse does not
	// know is an outside order system's, and no drift.
	CheckCouponLock = "coupon-lock"
	// CheckOrderCoupon: an open order lists a coupon it does not hold
	// locked, while the lock it took should still hold.
	CheckOrderCoupon = "order-coupon"
	// CheckFinishedOrderCoupon: a paid lapse order lists a coupon that
	// is not used by it, or a closed one lists a coupon still used by
	// it. A lapse order's coupons move only with it (see
	// Store.Transition), so this is drift, from before that held or from
	// outside lapse; there is no repair: money moved, an operator
	// decides.
	CheckFinishedOrderCoupon = "finished-order-coupon"
	// CheckTimer: pending coupons fall due in a bucket from now on that has
	// no group timer of their kind.
	CheckTimer = "timer"
)

// Checks lists every check, in the order they run.
var Checks = []string{CheckStockTotal, CheckStockNegative, CheckStockReserved, CheckCouponLock, CheckOrderCoupon,
	CheckFinishedOrderCoupon, CheckTimer}

// Repair events.
const (
	// EventStockRepaired: reconciliation rewrote a SKU's buckets.
	EventStockRepaired = "stock.repaired"
	// EventTimerRepaired: reconciliation put back a missing group timer.
	EventTimerRepaired = "timer.repaired"
	// ReasonReconcile is the reason of the coupon event of a lock
	// reconciliation gave back or redeemed.
	ReasonReconcile = "reconcile"
)

// reconcileBatch is how many rows one read of a check pages through.
const reconcileBatch = 1000

// maxDrift is how many drifts of one check a run reports and repairs; the
// counts go on counting past it.
const maxDrift = 1000

// Drift is one thing found out of step. Expected and Actual are the
// numbers compared: units of stock, or for a lock, an order's coupon or a
// timer, 1 for present and 0 for absent.
type Drift struct {
	Check    string
	Subject  string
	Detail   string
	Expected int64
	Actual   int64
	// Repairable says whether a repair run fixes this kind of drift.
	Repairable bool
	// Repaired says whether this run fixed it.
	Repaired bool
}

// Reconciliation is what one run found and did.
type Reconciliation struct {
	CheckedAt time.Time
	Drift     []Drift
	// Counts holds the drifts found per check, every check present.
	Counts map[string]int64
	// Repaired counts the drifts repaired.
	Repaired int64
}

// ReconcileParams are the inputs of Reconcile: Repair fixes what the run
// finds; Batch overrides ReconcileBatch (for tests).
type ReconcileParams struct {
	Repair bool
	Batch  int
	Now    time.Time
}

// Reconcile runs every check at p.Now, and repairs what it finds if
// p.Repair.
func (db *DB) Reconcile(ctx context.Context, p ReconcileParams) (Reconciliation, error) {
	if p.Batch <= 0 {
		p.Batch = reconcileBatch
	}
	r := &reconciler{db: db, p: p, out: Reconciliation{CheckedAt: p.Now, Counts: map[string]int64{}, Drift: []Drift{}}}
	for _, c := range Checks {
		r.out.Counts[c] = 0
	}
	for _, check := range []func(context.Context) error{r.stock, r.locks, r.orderCoupons, r.finishedOrderCoupons, r.timers} {
		if err := check(ctx); err != nil {
			return r.out, err
		}
	}
	return r.out, nil
}

// reconciler is one run of Reconcile.
type reconciler struct {
	db  *DB
	p   ReconcileParams
	out Reconciliation
}

// found counts d and, unless MaxDrift of its check are recorded, records
// it and, if the run repairs, repairs it with repair (nil: d is not
// repairable).
func (r *reconciler) found(ctx context.Context, d Drift, repair func(context.Context) (bool, error)) error {
	r.out.Counts[d.Check]++
	if r.out.Counts[d.Check] > maxDrift {
		return nil
	}
	d.Repairable = repair != nil
	if r.p.Repair && repair != nil {
		ok, err := repair(ctx)
		if err != nil {
			return err
		}
		d.Repaired = ok
		if ok {
			r.out.Repaired++
		}
	}
	r.out.Drift = append(r.out.Drift, d)
	return nil
}

// pageOpenOrders calls each with every unpaid order, a page at a time.
func (r *reconciler) pageOpenOrders(ctx context.Context, each func(order.Order) error) error {
	p := driver.PageParams{At: time.Unix(0, 0).UTC(), Limit: r.p.Batch}
	return eachRow(ctx, r.db, p, driver.Executor.OpenOrderPage, func(last order.Order, p *driver.PageParams) { p.At, p.After = last.Deadline, last.ID }, each)
}
