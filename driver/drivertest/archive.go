package drivertest

import (
	"context"
	"fmt"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/remind"
	"github.com/lapsehq/lapse/storetype"
)

// archiveTests test the moves to the archive: which rows, how many, in
// which order, and what the archive reads back.
var archiveTests = []test{
	{"Coupons", testArchiveCoupons},
	{"Orders", testArchiveOrders},
	{"PruneReminders", testPruneReminders},
}

// setCoupon moves coupon id from what is stored to st, changed at at.
func (f *fixture) setCoupon(id string, st coupon.State, at time.Time) coupon.Coupon {
	f.t.Helper()
	from := f.coupon(id)
	next := from
	next.Status, next.UpdatedAt = st, at
	got := read(f, "SetCoupon", func(tx driver.Executor) (bool, error) {
		return tx.SetCoupon(f.ctx, driver.SetCouponParams{From: from, Next: next})
	})
	want(f.t, "SetCoupon "+id, got, true)
	next.Version++
	return next
}

// setOrder moves order id from what is stored to st, changed at at.
func (f *fixture) setOrder(id string, st order.Status, at time.Time) order.Order {
	f.t.Helper()
	from := f.order(id)
	next := from
	next.Status, next.UpdatedAt = st, at
	if st == order.Closed {
		next.CloseReason = order.ReasonTimeout
	}
	got := read(f, "SetOrder", func(tx driver.Executor) (bool, error) {
		return tx.SetOrder(f.ctx, driver.SetOrderParams{From: from, Next: next})
	})
	want(f.t, "SetOrder "+id, got, true)
	next.Version++
	return next
}

// archivable reads what an archive at before would move.
func (f *fixture) archivable(before time.Time) storetype.Archived {
	f.t.Helper()
	a, err := f.d.Executor().Archivable(f.ctx, driver.ArchivableParams{Move: driver.MoveParams{Before: before, Now: later}, Reminders: before})
	ok(f.t, "Archivable", err)
	return a
}

// moveBatches runs move with p once per batch, each in a transaction of
// its own, and fails unless the batches moved as many rows as moved says.
func (f *fixture) moveBatches(what string, move func(driver.Executor, context.Context, driver.MoveParams) (int64, error), p driver.MoveParams, moved ...int64) {
	f.t.Helper()
	for i, n := range moved {
		got := read(f, what, func(tx driver.Executor) (int64, error) { return move(tx, f.ctx, p) })
		want(f.t, fmt.Sprintf("%s batch %d", what, i), got, n)
	}
}

// gone fails unless each of ids is ErrNotFound to get.
func gone[T any](f *fixture, get func(id string) (T, error), ids ...string) {
	f.t.Helper()
	for _, id := range ids {
		_, err := get(id)
		notFound(f.t, id, err)
	}
}

// couponIn returns the read of a coupon by ID through the driver's
// Executor, from the archive if archived.
func (f *fixture) couponIn(archived bool) func(id string) (coupon.Coupon, error) {
	return func(id string) (coupon.Coupon, error) {
		return f.d.Executor().Coupon(f.ctx, driver.CouponParams{ID: id, Archived: archived})
	}
}

// orderIn returns the read of an order by ID through the driver's
// Executor, from the archive if archived.
func (f *fixture) orderIn(archived bool) func(id string) (order.Order, error) {
	return func(id string) (order.Order, error) {
		return f.d.Executor().Order(f.ctx, driver.OrderParams{ID: id, Archived: archived})
	}
}

// later is after every time the tests write.
var later = t0.AddDate(1, 0, 0)

// testArchiveCoupons: ArchiveCoupons moves up to Limit terminal coupons
// changed at or before Before, as they were, still in their user's
// wallet with Archived and in the held counts; Coupon with Archived
// reads them, and only them; Archivable counts them beforehand. The
// order of a batch is not part of the contract (MySQL moves coupons in
// the order of its index on (status, updated_at)).
func testArchiveCoupons(f *fixture) {
	f.insertTemplates(newTemplate("tp1", 0))
	f.insertCoupons(newCoupon("c1", "tp1", "u1", t0), newCoupon("c2", "tp1", "u1", t0), newCoupon("c3", "tp1", "u1", t0),
		newCoupon("c4", "tp1", "u1", t0), newCoupon("c5", "tp1", "u1", t0))
	used := f.setCoupon("c1", coupon.Used, t0.Add(3*time.Hour))
	f.setCoupon("c2", coupon.Expired, t0.Add(1*time.Hour))
	f.setCoupon("c3", coupon.Voided, t0.Add(2*time.Hour))
	f.setCoupon("c4", coupon.Voided, t0.Add(9*time.Hour))
	f.lock("c5", t0)
	want(f.t, "Archivable", f.archivable(t0.Add(3*time.Hour)).Coupons, 3)
	f.moveBatches("ArchiveCoupons", driver.Executor.ArchiveCoupons, driver.MoveParams{Before: t0.Add(3 * time.Hour), Now: later, Limit: 2}, 2, 1, 0)
	gone(f, f.couponIn(false), "c1", "c2", "c3")
	gone(f, f.couponIn(true), "c4", "c5")
	for _, tc := range []struct {
		archived bool
		want     []string
	}{{false, []string{"c4", "c5"}}, {true, []string{"c1", "c2", "c3", "c4", "c5"}}} {
		got, err := f.d.Executor().UserCoupons(f.ctx, storetype.UserCouponsParams{UserID: "u1", Now: t0, Limit: 10, Archived: tc.archived})
		ok(f.t, "UserCoupons", err)
		wantIDs(f.t, fmt.Sprintf("UserCoupons archived=%v", tc.archived), got, couponID, tc.want...)
	}
	got, err := f.couponIn(true)("c1")
	ok(f.t, "Coupon archived", err)
	f.wantCoupon("Coupon archived", got, used)
	held, err := f.d.Executor().HeldCounts(f.ctx, driver.HeldCountsParams{TemplateID: "tp1", Users: []string{"u1"}})
	ok(f.t, "HeldCounts", err)
	want(f.t, "HeldCounts, archived ones too", held["u1"], 5)
	f.coupon("c4")
	f.coupon("c5")
	want(f.t, "Archivable after", f.archivable(t0.Add(3*time.Hour)).Coupons, 0)
}

// testArchiveOrders: ArchiveOrders moves up to Limit paid or closed
// orders changed at or before Before, as they were (in any order, as
// ArchiveCoupons); Order with Archived reads them, and only them.
func testArchiveOrders(f *fixture) {
	f.insertOrders(newOrder("o1", t0), newOrder("o2", t0), newOrder("o3", t0), newOrder("o4", t0))
	paid := f.setOrder("o1", order.Paid, t0.Add(2*time.Hour))
	f.setOrder("o2", order.Closed, t0.Add(1*time.Hour))
	f.setOrder("o3", order.Paid, t0.Add(9*time.Hour))
	want(f.t, "Archivable", f.archivable(t0.Add(2*time.Hour)).Orders, 2)
	f.moveBatches("ArchiveOrders", driver.Executor.ArchiveOrders, driver.MoveParams{Before: t0.Add(2 * time.Hour), Now: later, Limit: 1}, 1, 1, 0)
	gone(f, f.orderIn(false), "o1", "o2")
	gone(f, f.orderIn(true), "o3", "o4")
	got, err := f.orderIn(true)("o1")
	ok(f.t, "Order archived", err)
	f.wantOrder("Order archived", got, paid)
	f.order("o3")
	f.order("o4")
}

// testPruneReminders: PruneReminders deletes up to Limit sent or dropped
// reminders done at or before Before, and counts them; Archivable counts
// them beforehand.
func testPruneReminders(f *fixture) {
	var ids []int64
	f.tx(func(tx driver.Executor) {
		ok(f.t, "TouchUser", tx.TouchUser(f.ctx, driver.TouchUserParams{ID: "u1", Now: t0}))
		for i := range 4 {
			due := t0.Add(time.Duration(i) * time.Hour)
			id, err := tx.InsertReminder(f.ctx, driver.PlannedReminder{UserID: "u1", Lead: time.Hour, First: due, Last: due, Due: due})
			ok(f.t, "InsertReminder", err)
			ids = append(ids, id)
		}
	})
	f.tx(func(tx driver.Executor) {
		for i, st := range []string{driver.ReminderSent, driver.ReminderDropped, driver.ReminderSent} {
			done, err := tx.FinishReminder(f.ctx, driver.FinishedReminder{ID: ids[i], Status: st, Channel: remind.InApp, Reason: "r",
				At: t0.Add(time.Duration(i) * time.Hour)})
			ok(f.t, "FinishReminder", err)
			want(f.t, "FinishReminder", done, true)
		}
	})
	want(f.t, "Archivable", f.archivable(t0.Add(time.Hour)).Reminders, 2)
	for _, pruned := range []int64{1, 1, 0} {
		got := read(f, "PruneReminders", func(tx driver.Executor) (int64, error) {
			return tx.PruneReminders(f.ctx, storetype.PruneRequestsParams{Before: t0.Add(time.Hour), Limit: 1})
		})
		want(f.t, "PruneReminders", got, pruned)
	}
	f.tx(func(tx driver.Executor) {
		for i, kept := range []bool{false, false, true, true} {
			_, err := tx.Reminder(f.ctx, ids[i])
			if kept {
				ok(f.t, "Reminder kept", err)
			} else {
				notFound(f.t, "Reminder pruned", err)
			}
		}
	})
}
