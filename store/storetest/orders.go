package storetest

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

var orderTests = []test{
	{"PutSKU", testPutSKU},
	{"CreateReservesAndLocks", testCreateOrder},
	{"CreateRefusalsChangeNothing", testCreateOrderRefusals},
	{"Pay", testPayOrder},
	{"LatePaymentRecordedOnce", testLatePayment},
	{"LatePaymentLongPaymentID", testLatePaymentLongID},
	{"Cancel", testCancelOrder},
	{"CloseDueNeverEarly", testCloseDueOrders},
	{"CloseDueBatch", testCloseDueBatch},
	{"CloseDueVoidsMarked", testCloseDueVoidsMarked},
	{"DueOrders", testDueOrders},
	{"PayRacesTimeout", testPayRacesTimeout},
	{"WalletRefusesLapseOrders", testWalletRefusesLapseOrders},
}

// orderFixture is a fixture with a stocked SKU and a user holding coupons.
type orderFixture struct {
	*fixture
	tpl coupon.Template
}

const (
	sku1, sku2 = "apple", "pear"
	buyer      = "buyer"
	price      = 1500 // per unit: the fixture's orders of 3 come to 4500
)

func newOrderFixture(t *testing.T, open opener) *orderFixture {
	t.Helper()
	f := &orderFixture{fixture: newFixture(t, open)}
	f.tpl = f.template(func(tp *coupon.Template) { tp.MinSpend = 3000; tp.Value = 500 })
	f.putSKU(sku1, 10)
	f.putSKU(sku2, 5)
	return f
}

func (f *orderFixture) putSKU(sku string, stock int64) storetype.SKU {
	f.t.Helper()
	return get(f.fixture, "PutSKU", f.s.PutSKU, store.PutSKUParams{SKU: sku, Stock: stock, Now: t0})
}

func (f *orderFixture) sku(sku string) storetype.SKU {
	f.t.Helper()
	return get(f.fixture, "SKU", f.s.SKU, sku)
}

func (f *orderFixture) wantSKU(what string, sku string, available, reserved, sold int64) {
	f.t.Helper()
	got := f.sku(sku)
	want := storetype.SKU{SKU: sku, Available: available, Reserved: reserved, Sold: sold, Buckets: 1}
	if got != want {
		f.t.Fatalf("%s: SKU: got %+v, want %+v", what, got, want)
	}
}

// create makes an order of 3 apples (4500) with the given coupons, due
// 30 minutes after t0.
func (f *orderFixture) create(couponIDs ...string) order.Order {
	f.t.Helper()
	return get(f.fixture, "CreateOrder", f.s.CreateOrder, f.params(couponIDs...))
}

func (f *orderFixture) params(couponIDs ...string) store.CreateOrderParams {
	return store.CreateOrderParams{UserID: buyer, Items: []order.Item{{SKU: sku1, Qty: 3, UnitPrice: price}},
		CouponIDs: couponIDs, Deadline: t0.Add(30 * time.Minute), Now: t0}
}

func (f *orderFixture) order(id string) order.Order {
	f.t.Helper()
	return get(f.fixture, "Order", f.s.Order, id)
}

// eventsOfType returns the events of one type about subject.
func (f *orderFixture) eventsOfType(subject, typ string) []storetype.Event {
	f.t.Helper()
	var out []storetype.Event
	for _, e := range f.eventsOf(subject) {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}

func testPutSKU(t *testing.T, open opener) {
	f := newOrderFixture(t, open)
	f.wantSKU("new SKU", sku1, 10, 0, 0)
	f.create()
	if got := f.putSKU(sku1, 20); got.Available != 17 || got.Reserved != 3 {
		t.Fatalf("restock to 20 with 3 reserved: got %+v, want available 17 reserved 3", got)
	}
	var inv *coupon.InvalidError
	if _, err := f.s.PutSKU(f.ctx, store.PutSKUParams{SKU: sku1, Stock: 2, Now: t0}); !errors.As(err, &inv) || inv.Field != "stock" {
		t.Fatalf("stock below reserved: got %v, want invalid stock", err)
	}
	if _, err := f.s.PutSKU(f.ctx, store.PutSKUParams{SKU: "x", Stock: -1, Now: t0}); !errors.As(err, &inv) {
		t.Fatalf("negative stock: got %v, want invalid", err)
	}
	f.wantSKU("after refused restocks", sku1, 17, 3, 0)
	if _, err := f.s.SKU(f.ctx, "x"); !errors.Is(err, storetype.ErrNotFound) {
		t.Fatalf("refused new SKU: got %v, want ErrNotFound", err)
	}
}

func testCreateOrder(t *testing.T, open opener) {
	f := newOrderFixture(t, open)
	c1, c2 := f.claim(f.tpl.ID, buyer, t0), f.claim(f.tpl.ID, buyer, t0)
	o := f.create(c1.ID, c2.ID)
	if o.Status != order.Unpaid || o.Total != 4500 || o.Discount != 1000 || o.AmountDue != 3500 || o.UserID != buyer {
		t.Fatalf("order: got %+v, want unpaid, total 4500, discount 1000, due 3500", o)
	}
	f.wantTime("deadline", o.Deadline, t0.Add(30*time.Minute))
	if got := f.order(o.ID); got.Version != o.Version || len(got.Items) != 1 || got.Items[0] != o.Items[0] || len(got.CouponIDs) != 2 {
		t.Fatalf("stored order: got %+v, want %+v", got, o)
	}
	f.wantSKU("after create", sku1, 7, 3, 0)
	for _, id := range []string{c1.ID, c2.ID} {
		c := f.coupon(id)
		if c.Status != coupon.Locked || c.OrderID != o.ID || c.LockedUntil.Before(o.Deadline) {
			t.Fatalf("coupon %s: got %s, want locked by %s until at least %s", id, fmtCoupon(c), o.ID, fmtTime(o.Deadline))
		}
	}
	if n := len(f.eventsOfType(o.ID, store.EventOrderCreated)); n != 1 {
		t.Fatalf("order.created events: got %d, want 1", n)
	}
	if !hasTimer(f.timers(), storetype.TimerClose, storetype.BucketOf(o.Deadline)) {
		t.Fatalf("timers: got %s, want an order.close timer at %s", fmtTimers(f.timers()), fmtTime(storetype.BucketOf(o.Deadline)))
	}
	if got := f.stats(t0).OpenOrders; got != 1 {
		t.Fatalf("open orders: got %d, want 1", got)
	}
}

func testCreateOrderRefusals(t *testing.T, open opener) {
	cases := []struct {
		name  string
		edit  func(f *orderFixture, p *store.CreateOrderParams)
		field string // for an InvalidError
		err   error  // otherwise
	}{
		{"unknown SKU after a reserved one", func(f *orderFixture, p *store.CreateOrderParams) {
			p.Items = append(p.Items, order.Item{SKU: "nope", Qty: 1})
		}, "items[1].sku", nil},
		{"insufficient stock on the second item", func(f *orderFixture, p *store.CreateOrderParams) {
			p.Items = append(p.Items, order.Item{SKU: sku2, Qty: 6})
		}, "", order.ErrInsufficientStock},
		{"qty zero", func(f *orderFixture, p *store.CreateOrderParams) { p.Items[0].Qty = 0 }, "items[0].qty", nil},
		{"negative price", func(f *orderFixture, p *store.CreateOrderParams) { p.Items[0].UnitPrice = -1 }, "items[0].unit_price", nil},
		{"deadline not after now", func(f *orderFixture, p *store.CreateOrderParams) { p.Deadline = p.Now }, "deadline", nil},
		{"another user's coupon", func(f *orderFixture, p *store.CreateOrderParams) {
			p.CouponIDs = append(p.CouponIDs, f.claim(f.tpl.ID, "someone-else", t0).ID)
		}, "coupon_ids[1]", nil},
		{"unknown coupon", func(f *orderFixture, p *store.CreateOrderParams) {
			p.CouponIDs = append(p.CouponIDs, "cpn_nope")
		}, "coupon_ids[1]", nil},
		{"below min_spend", func(f *orderFixture, p *store.CreateOrderParams) { p.Items[0].Qty = 1 }, "coupon_ids[0]", nil},
		{"expired coupon", func(f *orderFixture, p *store.CreateOrderParams) {
			p.CouponIDs = append(p.CouponIDs, f.claim(f.tpl.ID, buyer, t0.Add(-24*time.Hour)).ID)
		}, "", coupon.ErrExpired},
		{"coupon locked by another order", func(f *orderFixture, p *store.CreateOrderParams) {
			c := f.claim(f.tpl.ID, buyer, t0)
			f.do(c.ID, lock("other-order", t0, time.Hour))
			p.CouponIDs = append(p.CouponIDs, c.ID)
		}, "", coupon.ErrInvalidState},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newOrderFixture(t, open)
			good := f.claim(f.tpl.ID, buyer, t0)
			p := f.params(good.ID)
			tc.edit(f, &p)
			before := f.snap(f.tpl.ID, buyer, t0)
			_, err := f.s.CreateOrder(f.ctx, p)
			var inv *coupon.InvalidError
			switch {
			case tc.field != "" && (!errors.As(err, &inv) || inv.Field != tc.field):
				t.Fatalf("got %v, want invalid %s", err, tc.field)
			case tc.err != nil && !errors.Is(err, tc.err):
				t.Fatalf("got %v, want %v", err, tc.err)
			}
			f.unchanged("refused order", f.tpl.ID, buyer, t0, before)
			f.wantSKU("refused order", sku1, 10, 0, 0)
			f.wantSKU("refused order", sku2, 5, 0, 0)
			if got := f.stats(t0).OpenOrders; got != 0 {
				t.Fatalf("open orders: got %d, want 0", got)
			}
		})
	}
}

func testPayOrder(t *testing.T, open opener) {
	f := newOrderFixture(t, open)
	c := f.claim(f.tpl.ID, buyer, t0)
	o := f.create(c.ID)
	before := f.snap(f.tpl.ID, buyer, t0)
	var inv *coupon.InvalidError
	_, err := f.s.PayOrder(f.ctx, store.PayOrderParams{OrderID: o.ID, PaymentID: "p1", Amount: o.AmountDue + 1, Now: t0})
	if !errors.As(err, &inv) || inv.Field != "amount" {
		t.Fatalf("wrong amount: got %v, want invalid amount", err)
	}
	f.unchanged("wrong amount", f.tpl.ID, buyer, t0, before)
	f.wantSKU("wrong amount", sku1, 7, 3, 0)
	_, err = f.s.PayOrder(f.ctx, store.PayOrderParams{OrderID: "ord_nope", PaymentID: "p1", Amount: 1, Now: t0})
	f.wantErr("pay an unknown order", err, storetype.ErrNotFound)

	paid, err := f.s.PayOrder(f.ctx, store.PayOrderParams{OrderID: o.ID, PaymentID: "p1", Amount: o.AmountDue, Now: t0.Add(time.Minute)})
	if err != nil {
		t.Fatalf("pay: %v", err)
	}
	if got := f.order(o.ID); paid.Status != order.Paid || got.Status != order.Paid || got.PaymentID != "p1" {
		t.Fatalf("paid order: returned %s, stored %+v", paid.Status, got)
	}
	if got := f.coupon(c.ID); got.Status != coupon.Used || got.OrderID != o.ID {
		t.Fatalf("coupon after pay: got %s, want used by %s", fmtCoupon(got), o.ID)
	}
	f.wantSKU("after pay", sku1, 7, 0, 3)
	_, err = f.s.PayOrder(f.ctx, store.PayOrderParams{OrderID: o.ID, PaymentID: "p1", Amount: o.AmountDue, Now: t0.Add(time.Minute)})
	f.wantErr("pay twice", err, order.ErrInvalidState)
	if n := len(f.eventsOfType(o.ID, store.EventOrderPaid)); n != 1 {
		t.Fatalf("order.paid events: got %d, want 1", n)
	}
	if got := f.stats(t0).OpenOrders; got != 0 {
		t.Fatalf("open orders after pay: got %d, want 0", got)
	}
}

func testLatePayment(t *testing.T, open opener) {
	f := newOrderFixture(t, open)
	o := f.create()
	atDeadline := store.PayOrderParams{OrderID: o.ID, PaymentID: "p-late", Amount: o.AmountDue, Now: o.Deadline}
	_, err := f.s.PayOrder(f.ctx, atDeadline)
	f.wantErr("pay at the deadline", err, order.ErrClosed)
	if got := f.order(o.ID); got.Status != order.Unpaid {
		t.Fatalf("order after refused payment: got %s, want unpaid", got.Status)
	}
	f.wantSKU("after refused payment", sku1, 7, 3, 0)
	if _, err := f.s.CloseDueOrders(f.ctx, storetype.DueParams{Now: o.Deadline, Limit: 10}); err != nil {
		t.Fatalf("CloseDueOrders: %v", err)
	}
	for range 3 { // retries of one payment
		_, err := f.s.PayOrder(f.ctx, atDeadline)
		f.wantErr("pay a closed order", err, order.ErrClosed)
	}
	late := f.eventsOfType(o.ID, store.EventOrderLatePayment)
	if len(late) != 1 {
		t.Fatalf("order.late_payment events: got %d, want 1", len(late))
	}
	var d store.OrderEventData
	if err := json.Unmarshal(late[0].Data, &d); err != nil || d.PaymentID != "p-late" || d.Amount != o.AmountDue {
		t.Fatalf("late payment data: got %+v (%v), want payment p-late of %d", d, err, o.AmountDue)
	}
	f.wantSKU("after late payments", sku1, 10, 0, 0)
	// The payment system's word is taken past the deadline while unpaid.
	o2 := f.create()
	if _, err := f.s.PayOrder(f.ctx, store.PayOrderParams{OrderID: o2.ID, PaymentID: "p2", Confirmed: true, Now: o2.Deadline.Add(time.Second)}); err != nil {
		t.Fatalf("confirmed payment past the deadline: %v", err)
	}
	f.wantSKU("after confirmed payment", sku1, 7, 0, 3)
}

// testLatePaymentLongID: a late payment whose payment ID is long, a
// Stripe-style one of 27 bytes or one of the 128 the input rules allow,
// is recorded once, as a short one is: its event's ID does not grow with
// the payment ID (on MySQL it overflowed the events' ID column, and the
// refusal was answered with nothing recorded).
func testLatePaymentLongID(t *testing.T, open opener) {
	for _, pid := range []string{"pi_3MtwBwLkdIwHu7ix28a3tqPa", strings.Repeat("p", 128)} {
		t.Run(fmt.Sprintf("%d bytes", len(pid)), func(t *testing.T) {
			f := newOrderFixture(t, open)
			o := f.create()
			if _, err := f.s.CloseDueOrders(f.ctx, storetype.DueParams{Now: o.Deadline, Limit: 10}); err != nil {
				t.Fatalf("CloseDueOrders: %v", err)
			}
			for range 3 { // retries of one payment
				_, err := f.s.PayOrder(f.ctx, store.PayOrderParams{OrderID: o.ID, PaymentID: pid, Amount: o.AmountDue, Now: o.Deadline})
				f.wantErr("pay a closed order", err, order.ErrClosed)
			}
			late := f.eventsOfType(o.ID, store.EventOrderLatePayment)
			if len(late) != 1 {
				t.Fatalf("order.late_payment events: got %d, want 1", len(late))
			}
			var d store.OrderEventData
			if err := json.Unmarshal(late[0].Data, &d); err != nil || d.PaymentID != pid {
				t.Fatalf("late payment data: got %+v (%v), want payment %s", d, err, pid)
			}
		})
	}
}

func testCancelOrder(t *testing.T, open opener) {
	f := newOrderFixture(t, open)
	c := f.claim(f.tpl.ID, buyer, t0)
	o := f.create(c.ID)
	_, err := f.s.CloseOrder(f.ctx, store.CloseOrderParams{OrderID: o.ID, Reason: order.ReasonTimeout, Now: o.Deadline.Add(-time.Millisecond)})
	f.wantErr("timeout before the deadline", err, order.ErrNotDue)
	closed, err := f.s.CloseOrder(f.ctx, store.CloseOrderParams{OrderID: o.ID, Reason: order.ReasonCancelled, Now: t0.Add(time.Minute)})
	if err != nil {
		t.Fatalf("cancel: %v", err)
	}
	if closed.Status != order.Closed || f.order(o.ID).CloseReason != order.ReasonCancelled {
		t.Fatalf("cancelled order: got %+v", f.order(o.ID))
	}
	f.wantSKU("after cancel", sku1, 10, 0, 0)
	if got := f.coupon(c.ID); got.Status != coupon.Unused || got.OrderID != "" {
		t.Fatalf("coupon after cancel: got %s, want unused", fmtCoupon(got))
	}
	_, err = f.s.CloseOrder(f.ctx, store.CloseOrderParams{OrderID: o.ID, Reason: order.ReasonCancelled, Now: t0.Add(time.Minute)})
	f.wantErr("cancel twice", err, order.ErrInvalidState)
	// A coupon whose expires_at passed while its order was open comes back expired.
	c2 := f.claim(f.tpl.ID, buyer, t0)
	o2 := f.create(c2.ID)
	if _, err := f.s.CloseOrder(f.ctx, store.CloseOrderParams{OrderID: o2.ID, Reason: order.ReasonCancelled, Now: c2.ExpiresAt}); err != nil {
		t.Fatalf("cancel past coupon expiry: %v", err)
	}
	if got := f.coupon(c2.ID); got.Status != coupon.Expired {
		t.Fatalf("coupon after late cancel: got %s, want expired", fmtCoupon(got))
	}
	if n := len(f.eventsOfType(o.ID, store.EventOrderClosed)); n != 1 {
		t.Fatalf("order.closed events: got %d, want 1", n)
	}
}

func testCloseDueOrders(t *testing.T, open opener) {
	f := newOrderFixture(t, open)
	c := f.claim(f.tpl.ID, buyer, t0)
	o := f.create(c.ID)
	p := f.params()
	p.Deadline = o.Deadline.Add(time.Minute)
	later, err := f.s.CreateOrder(f.ctx, p)
	if err != nil {
		t.Fatalf("CreateOrder: %v", err)
	}
	d, err := f.s.CloseDueOrders(f.ctx, storetype.DueParams{Now: o.Deadline.Add(-time.Millisecond), Limit: 10})
	if err != nil || len(d.Due) != 0 {
		t.Fatalf("1ms before the deadline: got (%d closed, %v), want none", len(d.Due), err)
	}
	f.wantTime("next", d.Next, o.Deadline)
	if got := f.stats(o.Deadline).DueBacklog; got != 1 {
		t.Fatalf("due backlog at the deadline: got %d, want 1", got)
	}
	d, err = f.s.CloseDueOrders(f.ctx, storetype.DueParams{Now: o.Deadline, Limit: 10})
	if err != nil || len(d.Due) != 1 {
		t.Fatalf("at the deadline: got (%d closed, %v), want 1", len(d.Due), err)
	}
	f.wantDrained("close", d, []time.Time{o.Deadline}, later.Deadline)
	got := f.order(o.ID)
	if got.Status != order.Closed || got.CloseReason != order.ReasonTimeout {
		t.Fatalf("closed order: got %s/%s, want closed/timeout", got.Status, got.CloseReason)
	}
	f.wantSKU("after timeout", sku1, 7, 3, 0)
	if got := f.coupon(c.ID); got.Status != coupon.Unused {
		t.Fatalf("coupon after timeout: got %s, want unused", fmtCoupon(got))
	}
	ev := f.eventsOfType(o.ID, store.EventOrderClosed)
	if len(ev) != 1 || ev[0].Time.Before(o.Deadline) {
		t.Fatalf("order.closed events: got %v, want one at or after the deadline", fmtEvents(ev))
	}
	d, err = f.s.CloseDueOrders(f.ctx, storetype.DueParams{Now: o.Deadline, Limit: 10})
	if err != nil || len(d.Due) != 0 {
		t.Fatalf("again: got (%d closed, %v), want none", len(d.Due), err)
	}
}

func testDueOrders(t *testing.T, open opener) {
	f := newOrderFixture(t, open)
	a := f.create()
	p := f.params()
	p.Deadline = a.Deadline.Add(time.Second)
	b, err := f.s.CreateOrder(f.ctx, p)
	if err != nil {
		t.Fatalf("CreateOrder: %v", err)
	}
	due, err := f.s.DueOrders(f.ctx, storetype.DueParams{Now: a.Deadline, Limit: 10})
	if err != nil || len(due.Orders) != 1 || due.Orders[0].ID != a.ID {
		t.Fatalf("DueOrders at a's deadline: got %+v (%v), want only %s", due.Orders, err, a.ID)
	}
	f.wantTime("next", due.Next, b.Deadline)
	if got := f.order(a.ID).Status; got != order.Unpaid {
		t.Fatalf("DueOrders changed the order: got %s", got)
	}
}

// testPayRacesTimeout races a payment against the timeout close of the
// same order, many times: each ends paid or closed, never both, with stock
// and coupon to match.
func testPayRacesTimeout(t *testing.T, open opener) {
	f := newOrderFixture(t, open)
	f.putSKU(sku1, 1000)
	for round := range 8 {
		c := f.claim(f.tpl.ID, buyer, t0)
		o := f.create(c.ID)
		errs := race(func(i int) error {
			if i%2 == 0 {
				_, err := f.s.PayOrder(f.ctx, store.PayOrderParams{OrderID: o.ID, PaymentID: "p", Amount: o.AmountDue, Confirmed: true, Now: o.Deadline})
				return err
			}
			_, err := f.s.CloseOrder(f.ctx, store.CloseOrderParams{OrderID: o.ID, Reason: order.ReasonTimeout, Now: o.Deadline})
			return err
		})
		wins := 0
		for _, err := range errs {
			switch {
			case err == nil:
				wins++
			case !errors.Is(err, order.ErrInvalidState) && !errors.Is(err, order.ErrClosed):
				t.Fatalf("round %d: got error %v", round, err)
			}
		}
		if wins != 1 {
			t.Fatalf("round %d: winners: got %d, want 1", round, wins)
		}
		got, cs := f.order(o.ID), f.coupon(c.ID)
		paid, closed := len(f.eventsOfType(o.ID, store.EventOrderPaid)), len(f.eventsOfType(o.ID, store.EventOrderClosed))
		switch got.Status {
		case order.Paid:
			if cs.Status != coupon.Used || paid != 1 || closed != 0 {
				t.Fatalf("round %d: paid order with coupon %s, %d paid and %d closed events", round, cs.Status, paid, closed)
			}
		case order.Closed:
			if cs.Status != coupon.Unused || paid != 0 || closed != 1 {
				t.Fatalf("round %d: closed order with coupon %s, %d paid and %d closed events", round, cs.Status, paid, closed)
			}
		default:
			t.Fatalf("round %d: order %s after the race", round, got.Status)
		}
	}
	k := f.sku(sku1)
	if k.Available+k.Reserved+k.Sold != 1000 || k.Reserved != 0 {
		t.Fatalf("stock after the races: got %+v, want sum 1000 and nothing reserved", k)
	}
}

// testWalletRefusesLapseOrders: a wallet transition (Transition) that
// names a lapse order is refused with invalid-state and changes nothing,
// whether the order holds the coupon (a redeem or unlock of its locked
// coupon, a refund of its used one) or not (a lock or redeem of another
// coupon for it): the order's coupons move only with it. An outside
// order's ID still works.
func testWalletRefusesLapseOrders(t *testing.T, open opener) {
	f := newOrderFixture(t, open)
	held, free := f.claim(f.tpl.ID, buyer, t0), f.claim(f.tpl.ID, buyer, t0)
	o := f.create(held.ID)
	at := t0.Add(time.Minute)
	refused := func(what string, c coupon.Coupon, p store.TransitionParams) {
		t.Helper()
		before := f.snap(f.tpl.ID, buyer, at)
		p.CouponID = c.ID
		_, err := f.s.Transition(f.ctx, p)
		if !errors.Is(err, store.ErrLapseOrder) || !errors.Is(err, coupon.ErrInvalidState) {
			t.Fatalf("%s: got %v, want ErrLapseOrder (invalid state)", what, err)
		}
		f.unchanged(what, f.tpl.ID, buyer, at, before)
	}
	refused("redeem of the unpaid order's coupon", held, act(coupon.Redeem, o.ID, at))
	refused("unlock of the unpaid order's coupon", held, act(coupon.Unlock, o.ID, at))
	refused("lock of another coupon for the order", free, lock(o.ID, at, time.Hour))
	refused("redeem of another coupon for the order", free, act(coupon.Redeem, o.ID, at))
	if _, err := f.s.PayOrder(f.ctx, store.PayOrderParams{OrderID: o.ID, PaymentID: "p1", Amount: o.AmountDue, Now: at}); err != nil {
		t.Fatalf("pay: %v", err)
	}
	refused("refund of the paid order's coupon", held, act(coupon.Refund, o.ID, at))
	if got := f.coupon(held.ID); got.Status != coupon.Used || got.OrderID != o.ID {
		t.Fatalf("coupon of the paid order: got %s, want used by %s", fmtCoupon(got), o.ID)
	}
	if got := f.do(free.ID, act(coupon.Redeem, "outside-order", at)); got.Status != coupon.Used {
		t.Fatalf("redeem for an outside order: got %s, want used", got.Status)
	}
}
