package storetest

import (
	"testing"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// batchSKUs are the SKUs of testCloseDueBatch: their stock and bucket
// count.
var batchSKUs = []struct {
	sku     string
	stock   int64
	buckets int
}{{"fig", 200, 1}, {"kiwi", 200, 3}, {"plum", 200, 8}}

// testCloseDueBatch closes, in one drain batch, orders across SKUs of
// one and several buckets, a third with a coupon: it gives back exactly
// their units and coupons, writes one order.closed and one
// coupon.unlocked each, and leaves alone an order due 1 ms after the
// batch's now and an order paid before it.
func testCloseDueBatch(t *testing.T, open opener) {
	f := newOrderFixture(t, open)
	for _, k := range batchSKUs {
		get(f.fixture, "PutSKU", f.s.PutSKU, store.PutSKUParams{SKU: k.sku, Stock: k.stock, Buckets: k.buckets, Now: t0})
	}
	deadline := t0.Add(30 * time.Minute)
	newOrder := func(i int, due time.Time) (order.Order, string) {
		p := store.CreateOrderParams{UserID: buyer, Deadline: due, Now: t0}
		for j, k := range batchSKUs {
			if q := int64((i + j) % 3); q > 0 { // two SKUs each, 2 and 3 units
				p.Items = append(p.Items, order.Item{SKU: k.sku, Qty: q + 1, UnitPrice: price})
			}
		}
		var c string
		if i%3 == 0 {
			c = f.claim(f.tpl.ID, buyer, t0).ID
			p.CouponIDs = []string{c}
		}
		return get(f.fixture, "CreateOrder", f.s.CreateOrder, p), c
	}
	const n = 12
	var batch []order.Order
	coupons := map[string]string{} // order ID to its coupon
	for i := range n {
		o, c := newOrder(i, deadline)
		batch, coupons[o.ID] = append(batch, o), c
	}
	late, _ := newOrder(n, deadline.Add(time.Millisecond))
	paid, paidCoupon := newOrder(n+3, deadline)
	if _, err := f.s.PayOrder(f.ctx, store.PayOrderParams{OrderID: paid.ID, PaymentID: "p1", Amount: paid.AmountDue, Now: t0.Add(time.Minute)}); err != nil {
		t.Fatalf("PayOrder: %v", err)
	}

	d, err := f.s.CloseDueOrders(f.ctx, storetype.DueParams{Now: deadline, Limit: 100})
	if err != nil || len(d.Due) != n {
		t.Fatalf("CloseDueOrders: got (%d closed, %v), want %d", len(d.Due), err, n)
	}
	for _, o := range batch {
		if got := f.order(o.ID); got.Status != order.Closed || got.CloseReason != order.ReasonTimeout || got.Version != o.Version+1 {
			t.Fatalf("order %s: got %s/%s v%d, want closed/timeout v%d", o.ID, got.Status, got.CloseReason, got.Version, o.Version+1)
		}
		if ev := f.eventsOfType(o.ID, store.EventOrderClosed); len(ev) != 1 {
			t.Fatalf("order %s: order.closed events: got %v, want 1", o.ID, fmtEvents(ev))
		}
		if c := coupons[o.ID]; c != "" {
			if got := f.coupon(c); got.Status != coupon.Unused || got.OrderID != "" {
				t.Fatalf("coupon of %s: got %s, want unused", o.ID, fmtCoupon(got))
			}
			if ev := f.eventsOfType(c, store.EventCouponUnlocked); len(ev) != 1 {
				t.Fatalf("coupon of %s: coupon.unlocked events: got %v, want 1", o.ID, fmtEvents(ev))
			}
		}
	}
	if got := f.order(late.ID); got.Status != order.Unpaid {
		t.Fatalf("order due 1 ms later: got %s, want unpaid", got.Status)
	}
	if got := f.order(paid.ID); got.Status != order.Paid {
		t.Fatalf("paid order: got %s, want paid", got.Status)
	}
	if got := f.coupon(paidCoupon); got.Status != coupon.Used {
		t.Fatalf("paid order's coupon: got %s, want used", fmtCoupon(got))
	}
	reserved, sold := units(late), units(paid)
	for _, k := range batchSKUs {
		got := f.sku(k.sku)
		want := storetype.SKU{SKU: k.sku, Available: k.stock - reserved[k.sku] - sold[k.sku], Reserved: reserved[k.sku], Sold: sold[k.sku], Buckets: k.buckets}
		if got != want {
			t.Fatalf("after the batch: SKU: got %+v, want %+v", got, want)
		}
	}
	if got := f.stats(deadline).DueBacklog; got != 0 {
		t.Fatalf("due backlog after the batch: got %d, want 0", got)
	}
}

// units sums o's units by SKU.
func units(o order.Order) map[string]int64 {
	m := map[string]int64{}
	for _, it := range o.Items {
		m[it.SKU] += it.Qty
	}
	return m
}

// testCloseDueVoidsMarked: a batch close of two orders, one holding a
// coupon a void operation marked while it was locked: that one is voided
// by the operation, the other comes back unused, as one at a time.
func testCloseDueVoidsMarked(t *testing.T, open opener) {
	f := newOrderFixture(t, open)
	other := f.template(func(tp *coupon.Template) { tp.MinSpend = 3000; tp.Value = 500 })
	marked, kept := f.claim(f.tpl.ID, buyer, t0), f.claim(other.ID, buyer, t0)
	a, b := f.create(marked.ID), f.create(kept.ID)
	op := f.startOp(store.StartOperationParams{Kind: storetype.OperationVoid, Target: storetype.OperationTarget{TemplateID: f.tpl.ID}, Args: storetype.OperationArgs{Reason: "leaked"}})
	f.runOp("a", 10, t0)
	f.wantStatus("marked coupon under its order", marked.ID, coupon.Locked)
	after := f.cursor()
	d, err := f.s.CloseDueOrders(f.ctx, storetype.DueParams{Now: a.Deadline, Limit: 10})
	if err != nil || len(d.Due) != 2 {
		t.Fatalf("CloseDueOrders: got (%d closed, %v), want 2", len(d.Due), err)
	}
	f.wantStatus("marked coupon once its order closed", marked.ID, coupon.Voided)
	f.wantOpEvent(after, marked.ID, store.EventCouponVoided, op.ID, "leaked")
	f.wantStatus("other coupon once its order closed", kept.ID, coupon.Unused)
	for _, o := range []order.Order{a, b} {
		if got := f.order(o.ID); got.Status != order.Closed {
			t.Fatalf("order %s: got %s, want closed", o.ID, got.Status)
		}
	}
	f.wantSKU("after the batch", sku1, 10, 0, 0)
}
