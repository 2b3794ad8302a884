package drivertest

import (
	"slices"
	"time"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/storetype"
)

// orderTests test the order rows: insert and read, the compare-and-set
// of a payment or close, and the reads of due orders.
var orderTests = []test{
	{"InsertRead", testOrderInsertRead},
	{"SetGuards", testSetOrder},
	{"OrdersDue", testOrdersDue},
	{"OrdersDueShards", testOrdersDueShards},
	{"DueOnExecutor", testDueOnExecutor},
	{"CloseOrders", testCloseOrders},
}

// newOrder returns an unpaid order of u1 due at deadline.
func newOrder(id string, deadline time.Time) order.Order {
	return order.Order{ID: id, UserID: "u1", Status: order.Unpaid,
		Items:     []order.Item{{SKU: "sku1", Qty: 2, UnitPrice: 300}, {SKU: "sku2", Qty: 1, UnitPrice: 50}},
		CouponIDs: []string{"c1"}, Total: 650, Discount: 100, AmountDue: 550,
		Deadline: deadline, CreatedAt: t0, UpdatedAt: t0}
}

// insertOrders stores os in one transaction.
func (f *fixture) insertOrders(os ...order.Order) {
	f.t.Helper()
	insert(f, "InsertOrder", driver.Executor.InsertOrder, os...)
}

// order reads order id through the driver's Executor.
func (f *fixture) order(id string) order.Order {
	f.t.Helper()
	o, err := f.d.Executor().Order(f.ctx, driver.OrderParams{ID: id})
	ok(f.t, "Order "+id, err)
	return o
}

// wantOrder fails unless got has want's stored fields.
func (f *fixture) wantOrder(what string, got, want order.Order) {
	f.t.Helper()
	if got.ID != want.ID || got.UserID != want.UserID || got.Status != want.Status || got.CloseReason != want.CloseReason ||
		!slices.Equal(got.Items, want.Items) || !slices.Equal(got.CouponIDs, want.CouponIDs) || got.Total != want.Total ||
		got.Discount != want.Discount || got.AmountDue != want.AmountDue || got.PaymentID != want.PaymentID || got.Version != want.Version {
		f.t.Fatalf("%s: got %+v, want %+v", what, got, want)
	}
	wantTime(f.t, what+": Deadline", got.Deadline, want.Deadline)
	wantTime(f.t, what+": CreatedAt", got.CreatedAt, want.CreatedAt)
	wantTime(f.t, what+": UpdatedAt", got.UpdatedAt, want.UpdatedAt)
}

func orderID(o order.Order) string { return o.ID }

// testOrderInsertRead: an order reads back unpaid, as inserted, through
// the driver's Executor and in a transaction.
func testOrderInsertRead(f *fixture) {
	o := newOrder("o1", t0.Add(time.Hour))
	f.insertOrders(o)
	stored := f.order("o1")
	o.Version = stored.Version
	f.wantOrder("Executor Order", stored, o)
	f.wantOrder("ExecutorTx Order", read(f, "Order", func(tx driver.Executor) (order.Order, error) {
		return tx.Order(f.ctx, driver.OrderParams{ID: "o1"})
	}), o)
}

// testSetOrder: SetOrder writes next's status, reason, payment and update
// time with the version plus one, and changes nothing from a stale
// version or once the order left unpaid.
func testSetOrder(f *fixture) {
	f.insertOrders(newOrder("o1", t0.Add(time.Hour)))
	from := f.order("o1")
	next := from
	next.Status, next.PaymentID, next.UpdatedAt = order.Paid, "pay1", t0.Add(time.Minute)
	stale := from
	stale.Version--
	wantSets(f, func(tx driver.Executor, from order.Order) (bool, error) {
		return tx.SetOrder(f.ctx, driver.SetOrderParams{From: from, Next: next})
	}, []setCase[order.Order]{
		{"stale version", stale, false},
		{"applies", from, true},
		{"left unpaid", from, false},
	})
	next.Version = from.Version + 1
	f.wantOrder("after SetOrder", f.order("o1"), next)
}

// testOrdersDue: OrdersDue reads the unpaid orders past their deadline at
// the Now passed, earliest first, up to Limit; a paid one is not due.
func testOrdersDue(f *fixture) {
	f.insertOrders(newOrder("o1", t0.Add(3*time.Hour)), newOrder("o2", t0.Add(time.Hour)),
		newOrder("o3", t0.Add(2*time.Hour)), newOrder("o4", t0.Add(time.Minute)))
	from := f.order("o4")
	next := from
	next.Status, next.CloseReason = order.Closed, order.ReasonCancelled
	want(f.t, "SetOrder", read(f, "SetOrder", func(tx driver.Executor) (bool, error) {
		return tx.SetOrder(f.ctx, driver.SetOrderParams{From: from, Next: next})
	}), true)
	wantDue(f, "OrdersDue", driver.Executor.OrdersDue, orderID, []dueCase{
		{t0, 10, nil},
		{t0.Add(time.Hour), 10, []string{"o2"}},
		{t0.Add(3 * time.Hour), 10, []string{"o2", "o3", "o1"}},
		{t0.Add(3 * time.Hour), 2, []string{"o2", "o3"}},
	})
}

// testOrdersDueShards: OrdersDue with leases reads only their shards.
func testOrdersDueShards(f *fixture) {
	in0, in9 := inShard("o", 0, 0), inShard("o", 9, 0)
	f.insertOrders(newOrder(in0, t0), newOrder(in9, t0))
	f.tx(func(tx driver.Executor) {
		got, err := tx.OrdersDue(f.ctx, storetype.DueParams{Now: t0, Limit: 10, Leases: []storetype.Lease{{Shard: 9, Holder: "h", Token: 1}}})
		ok(f.t, "OrdersDue", err)
		wantIDs(f.t, "OrdersDue shard 9", got, orderID, in9)
	})
}

// testDueOnExecutor: what the service reads of due orders outside a
// transaction: OrdersDue through the driver's Executor lists them
// earliest first up to Limit, and PendingFrom of TimerClose from just
// after Now reads the first deadline after Now.
func testDueOnExecutor(f *fixture) {
	f.insertOrders(newOrder("o1", t0.Add(time.Hour)), newOrder("o2", t0), newOrder("o3", t0.Add(2*time.Hour)))
	for _, tc := range []struct {
		now    time.Time
		limit  int
		wanted []string
		next   time.Time
	}{
		{t0.Add(-time.Minute), 10, nil, t0},
		{t0.Add(time.Hour), 10, []string{"o2", "o1"}, t0.Add(2 * time.Hour)},
		{t0.Add(time.Hour), 1, []string{"o2"}, t0.Add(2 * time.Hour)},
		{t0.Add(2 * time.Hour), 10, []string{"o2", "o1", "o3"}, time.Time{}},
	} {
		got, err := f.d.Executor().OrdersDue(f.ctx, storetype.DueParams{Now: tc.now, Limit: tc.limit})
		ok(f.t, "OrdersDue", err)
		wantIDs(f.t, "OrdersDue at "+tc.now.String(), got, orderID, tc.wanted...)
		next, err := f.d.Executor().PendingFrom(f.ctx, driver.PendingFromParams{Kind: storetype.TimerClose, From: tc.now.Add(time.Millisecond)})
		ok(f.t, "PendingFrom", err)
		wantTime(f.t, "next deadline after "+tc.now.String(), next, tc.next)
	}
}

// testCloseOrders: CloseOrders closes, in one statement, the listed
// orders still unpaid (reason, update time, version plus one), skips a
// paid one and an unknown ID, leaves the unlisted alone and counts what
// it closed.
func testCloseOrders(f *fixture) {
	f.insertOrders(newOrder("o1", t0.Add(time.Hour)), newOrder("o2", t0.Add(time.Hour)), newOrder("o3", t0.Add(time.Hour)))
	paid := f.order("o3")
	next := paid
	next.Status, next.PaymentID = order.Paid, "pay3"
	want(f.t, "pay o3", read(f, "SetOrder", func(tx driver.Executor) (bool, error) {
		return tx.SetOrder(f.ctx, driver.SetOrderParams{From: paid, Next: next})
	}), true)
	open, paid := f.order("o1"), f.order("o3")
	now := t0.Add(2 * time.Hour)
	close := func(tx driver.Executor) (int64, error) {
		return tx.CloseOrders(f.ctx, driver.CloseOrdersParams{IDs: []string{"o1", "o3", "o9"}, Reason: order.ReasonTimeout, Now: now})
	}
	want(f.t, "CloseOrders", read(f, "CloseOrders", close), 1)
	want(f.t, "CloseOrders again", read(f, "CloseOrders again", close), 0)
	closed := open
	closed.Status, closed.CloseReason, closed.UpdatedAt, closed.Version = order.Closed, order.ReasonTimeout, now, open.Version+1
	f.wantOrder("o1 closed", f.order("o1"), closed)
	f.wantOrder("o3 paid", f.order("o3"), paid)
	want(f.t, "o2 unlisted", f.order("o2").Status, order.Unpaid)
}
