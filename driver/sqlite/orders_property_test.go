package sqlite_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver/sqlite"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// orderMachine drives a real store with random creates, payments, cancels,
// clock steps, timeout drains and restarts, and checks after every step
// what must hold whatever the interleaving:
//   - per SKU, available + reserved + sold is the stock set, reserved is
//     what unpaid orders hold and sold what paid orders bought;
//   - no coupon is used by an order that is not paid, and none stays
//     locked by an order that closed;
//   - no order is closed on timeout before its deadline;
//   - once the timeout drain has caught up, no unpaid order is past its
//     deadline.
type orderMachine struct {
	path   string
	s      *store.DB
	now    time.Time
	stock  map[string]int64
	orders []string
	users  []string
	tpl    string
}

var propertySKUs = []string{"a", "b", "c"}

// propertyRuns numbers the database files, one per rapid run.
var propertyRuns atomic.Int64

func (m *orderMachine) open(t *rapid.T) {
	d, err := sqlite.Open(context.Background(), m.path, sqlite.Options{})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	s := store.New(d, store.Options{})
	m.s = s
}

func (m *orderMachine) init(t *rapid.T, dir string) {
	m.path = filepath.Join(dir, fmt.Sprintf("orders-%d.db", propertyRuns.Add(1)))
	m.now = time.Date(2026, 11, 11, 0, 0, 0, 0, time.UTC)
	m.open(t)
	m.stock = map[string]int64{}
	ctx := context.Background()
	for _, sku := range propertySKUs {
		n := rapid.Int64Range(0, 20).Draw(t, "stock "+sku)
		if _, err := m.s.PutSKU(ctx, store.PutSKUParams{SKU: sku, Stock: n, Now: m.now}); err != nil {
			t.Fatalf("PutSKU: %v", err)
		}
		m.stock[sku] = n
	}
	tp, err := m.s.CreateTemplate(ctx, store.CreateTemplateParams{Now: m.now, Template: coupon.Template{
		Name: "p", Value: 300, StartsAt: m.now, Duration: time.Duration(rapid.IntRange(10, 120).Draw(t, "coupon life")) * time.Second}})
	if err != nil {
		t.Fatalf("CreateTemplate: %v", err)
	}
	m.tpl = tp.ID
	m.users = []string{"u1", "u2"}
}

// Create orders random items, maybe with the user's coupons.
func (m *orderMachine) Create(t *rapid.T) {
	ctx := context.Background()
	user := rapid.SampledFrom(m.users).Draw(t, "user")
	var items []order.Item
	for _, sku := range propertySKUs {
		if rapid.Bool().Draw(t, "take "+sku) {
			items = append(items, order.Item{SKU: sku, Qty: rapid.Int64Range(1, 8).Draw(t, "qty"), UnitPrice: 100})
		}
	}
	if len(items) == 0 {
		items = []order.Item{{SKU: "a", Qty: 1, UnitPrice: 100}}
	}
	var coupons []string
	if rapid.Bool().Draw(t, "with coupon") {
		c, err := m.s.Claim(ctx, store.ClaimParams{TemplateID: m.tpl, UserID: user, Now: m.now})
		if err != nil {
			t.Fatalf("Claim: %v", err)
		}
		coupons = append(coupons, c.ID)
	}
	timeout := time.Duration(rapid.IntRange(1, 60).Draw(t, "timeout")) * time.Second
	o, err := m.s.CreateOrder(ctx, store.CreateOrderParams{UserID: user, Items: items, CouponIDs: coupons, Deadline: m.now.Add(timeout), Now: m.now})
	switch {
	case errors.Is(err, order.ErrInsufficientStock):
	case err != nil:
		t.Fatalf("CreateOrder: %v", err)
	default:
		m.orders = append(m.orders, o.ID)
	}
}

func (m *orderMachine) pick(t *rapid.T) (order.Order, bool) {
	if len(m.orders) == 0 {
		return order.Order{}, false
	}
	id := rapid.SampledFrom(m.orders).Draw(t, "order")
	o, err := m.s.Order(context.Background(), id)
	if err != nil {
		t.Fatalf("Order: %v", err)
	}
	return o, true
}

// Pay pays a random order the right amount: refused unless unpaid and in time.
func (m *orderMachine) Pay(t *rapid.T) {
	o, ok := m.pick(t)
	if !ok {
		t.Skip("no order")
	}
	_, err := m.s.PayOrder(context.Background(), store.PayOrderParams{OrderID: o.ID, PaymentID: "p-" + o.ID, Amount: o.AmountDue, Now: m.now})
	inTime := o.Status == order.Unpaid && m.now.Before(o.Deadline)
	if (err == nil) != inTime {
		t.Fatalf("pay %s (%s, deadline in %s): got %v", o.ID, o.Status, o.Deadline.Sub(m.now), err)
	}
}

// Cancel cancels a random order: refused unless unpaid.
func (m *orderMachine) Cancel(t *rapid.T) {
	o, ok := m.pick(t)
	if !ok {
		t.Skip("no order")
	}
	_, err := m.s.CloseOrder(context.Background(), store.CloseOrderParams{OrderID: o.ID, Reason: order.ReasonCancelled, Now: m.now})
	if (err == nil) != (o.Status == order.Unpaid) {
		t.Fatalf("cancel %s (%s): got %v", o.ID, o.Status, err)
	}
}

// Tick moves the clock.
func (m *orderMachine) Tick(t *rapid.T) {
	m.now = m.now.Add(time.Duration(rapid.IntRange(0, 30_000).Draw(t, "ms")) * time.Millisecond)
}

// Drain runs one timeout batch, as the engine does, small enough to leave
// work behind sometimes.
func (m *orderMachine) Drain(t *rapid.T) {
	if _, err := m.s.CloseDueOrders(context.Background(), storetype.DueParams{Now: m.now, Limit: rapid.IntRange(1, 3).Draw(t, "limit")}); err != nil {
		t.Fatalf("CloseDueOrders: %v", err)
	}
}

// CatchUp drains until nothing is due, then checks nothing unpaid is late.
func (m *orderMachine) CatchUp(t *rapid.T) {
	ctx := context.Background()
	for {
		d, err := m.s.CloseDueOrders(ctx, storetype.DueParams{Now: m.now, Limit: 2})
		if err != nil {
			t.Fatalf("CloseDueOrders: %v", err)
		}
		if len(d.Due) == 0 {
			break
		}
	}
	for _, id := range m.orders {
		o, _ := m.s.Order(ctx, id)
		if o.Status == order.Unpaid && !m.now.Before(o.Deadline) {
			t.Fatalf("order %s unpaid %s past its deadline after catching up", id, m.now.Sub(o.Deadline))
		}
	}
}

// Restart closes the store and opens the file again.
func (m *orderMachine) Restart(t *rapid.T) {
	if err := m.s.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	m.open(t)
}

// Check runs after every step.
func (m *orderMachine) Check(t *rapid.T) {
	ctx := context.Background()
	reserved, sold := map[string]int64{}, map[string]int64{}
	for _, id := range m.orders {
		o, err := m.s.Order(ctx, id)
		if err != nil {
			t.Fatalf("Order: %v", err)
		}
		for _, it := range o.Items {
			switch o.Status {
			case order.Unpaid:
				reserved[it.SKU] += it.Qty
			case order.Paid:
				sold[it.SKU] += it.Qty
			}
		}
		if o.Status == order.Closed && o.CloseReason == order.ReasonTimeout && o.UpdatedAt.Before(o.Deadline) {
			t.Fatalf("order %s closed on timeout %s before its deadline", id, o.Deadline.Sub(o.UpdatedAt))
		}
		for _, cid := range o.CouponIDs {
			c, err := m.s.Coupon(ctx, cid)
			if err != nil {
				t.Fatalf("Coupon: %v", err)
			}
			if c.Status == coupon.Used && (o.Status != order.Paid || c.OrderID != o.ID) {
				t.Fatalf("coupon %s used while its order %s is %s", cid, id, o.Status)
			}
			if o.Status == order.Unpaid && (c.Status != coupon.Locked || c.OrderID != o.ID) {
				t.Fatalf("coupon %s is %s while its order %s is unpaid", cid, c.Status, id)
			}
			if o.Status == order.Closed && c.Status == coupon.Locked && c.OrderID == o.ID {
				t.Fatalf("coupon %s still locked by its closed order %s", cid, id)
			}
		}
	}
	for _, sku := range propertySKUs {
		k, err := m.s.SKU(ctx, sku)
		if err != nil {
			t.Fatalf("SKU: %v", err)
		}
		if k.Available+k.Reserved+k.Sold != m.stock[sku] || k.Reserved != reserved[sku] || k.Sold != sold[sku] {
			t.Fatalf("SKU %s: got %+v, want sum %d, reserved %d, sold %d", sku, k, m.stock[sku], reserved[sku], sold[sku])
		}
	}
}

func TestOrderInvariantsProperty(t *testing.T) {
	dir := t.TempDir()
	rapid.Check(t, func(t *rapid.T) {
		m := &orderMachine{}
		m.init(t, dir)
		defer func() { m.s.Close() }()
		t.Repeat(rapid.StateMachineActions(m))
	})
}
