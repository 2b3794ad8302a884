package engine_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/engine"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/payhook"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// pipeListener is a net.Listener whose connections are in-memory pipes, so
// that a real HTTP server and client run inside a synctest bubble (a
// goroutine blocked on a socket would keep the bubble's clock still).
type pipeListener struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *pipeListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

func (l *pipeListener) Addr() net.Addr { return pipeAddr{} }

// dial hands the server one end of a new pipe and returns the other.
func (l *pipeListener) dial(ctx context.Context, _, _ string) (net.Conn, error) {
	client, server := net.Pipe()
	select {
	case l.conns <- server:
		return client, nil
	case <-l.done:
		return nil, net.ErrClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

type pipeAddr struct{}

func (pipeAddr) Network() string { return "pipe" }
func (pipeAddr) String() string  { return "pipe" }

// hook is a payment-status hook: an HTTP server answering with answer,
// and the real payhook client calling it. It counts the calls and keeps
// the order ids asked about.
type hook struct {
	client *payhook.Client
	calls  atomic.Int64
	mu     sync.Mutex
	asked  []string
}

// newHook serves answer as the hook. Call it inside the bubble, before
// setup, so that it is shut down after the engine has stopped.
func newHook(t *testing.T, answer http.HandlerFunc) *hook {
	t.Helper()
	h := &hook{}
	ln := &pipeListener{conns: make(chan net.Conn), done: make(chan struct{})}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.calls.Add(1)
		h.mu.Lock()
		h.asked = append(h.asked, r.URL.Query().Get("order_id"))
		h.mu.Unlock()
		answer(w, r)
	})}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	tr := &http.Transport{DialContext: ln.dial}
	var err error
	h.client, err = payhook.New("http://hook.test/check", &http.Client{Transport: tr})
	if err != nil {
		t.Fatalf("payhook: %v", err)
	}
	t.Cleanup(func() {
		tr.CloseIdleConnections()
		srv.Close()
		if err := <-served; !errors.Is(err, http.ErrServerClosed) {
			t.Errorf("hook server: %v", err)
		}
	})
	return h
}

func (h *hook) askedAbout() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.asked...)
}

// Hook answers.
func answerPaid(w http.ResponseWriter, _ *http.Request) {
	fmt.Fprint(w, `{"paid": true, "payment_id": "pay_hook"}`)
}

func answerUnpaid(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, `{"paid": false}`) }

func answerDown(w http.ResponseWriter, _ *http.Request) {
	http.Error(w, "payments down", http.StatusBadGateway)
}

// answerAfter answers paid, but only after d.
func answerAfter(d time.Duration) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(d):
			answerPaid(w, r)
		case <-r.Context().Done(): // the caller gave up
		}
	}
}

// answerNever hangs until the caller gives up.
func answerNever(_ http.ResponseWriter, r *http.Request) { <-r.Context().Done() }

// putSKU stocks sku with n.
func (r *rig) putSKU(t *testing.T, sku string, n int64) {
	t.Helper()
	if _, err := r.st.PutSKU(context.Background(), store.PutSKUParams{SKU: sku, Stock: n, Now: time.Now()}); err != nil {
		t.Fatalf("put sku: %v", err)
	}
}

// wantSKU fails unless sku's counters are available, reserved, sold.
func (r *rig) wantSKU(t *testing.T, sku string, available, reserved, sold int64) {
	t.Helper()
	got, err := r.st.SKU(context.Background(), sku)
	if err != nil {
		t.Fatalf("get sku: %v", err)
	}
	if want := (storetype.SKU{SKU: sku, Available: available, Reserved: reserved, Sold: sold, Buckets: 1}); got != want {
		t.Fatalf("sku: got %+v, want %+v", got, want)
	}
}

// order creates an order of qty of SKU "a" at 1000 each for user, due in
// timeout.
func (r *rig) order(t *testing.T, user string, qty int64, couponIDs []string, timeout time.Duration) order.Order {
	t.Helper()
	o, err := r.st.CreateOrder(context.Background(), store.CreateOrderParams{
		UserID: user, Items: []order.Item{{SKU: "a", Qty: qty, UnitPrice: 1000}}, CouponIDs: couponIDs,
		Deadline: time.Now().Add(timeout), Now: time.Now()})
	if err != nil {
		t.Fatalf("create order: %v", err)
	}
	return o
}

func (r *rig) readOrder(t *testing.T, id string) order.Order {
	t.Helper()
	o, err := r.st.Order(context.Background(), id)
	if err != nil {
		t.Fatalf("get order: %v", err)
	}
	return o
}

// paymentRig is a rig whose engine asks h before closing an order, stocked
// with 10 of SKU "a" and started; u1 holds a coupon.
func paymentRig(t *testing.T, h *hook, cfg engine.Config) (*rig, coupon.Coupon) {
	t.Helper()
	cfg.Payments = h.client
	r := setup(t, dbPath(t), cfg)
	r.putSKU(t, "a", 10)
	c := r.claim(t, r.template(t, coupon.Template{Duration: time.Hour}).ID, "u1")
	r.start(t)
	return r, c
}

// untilJustBefore sleeps until 1ms before at and lets the bubble settle.
func untilJustBefore(at time.Time) {
	time.Sleep(time.Until(at) - time.Millisecond)
	synctest.Wait()
}

// TestHookSaysPaid: an order the payment system reports paid becomes paid
// at its deadline, not closed.
func TestHookSaysPaid(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHook(t, answerPaid)
		r, c := paymentRig(t, h, engine.Config{})
		o := r.order(t, "u1", 3, []string{c.ID}, 5*time.Second)

		untilJustBefore(o.Deadline)
		if got := r.readOrder(t, o.ID).Status; got != order.Unpaid {
			t.Fatalf("1ms before the deadline: got %s, want unpaid", got)
		}
		if got := h.calls.Load(); got != 0 {
			t.Fatalf("hook calls before the deadline: got %d, want 0", got)
		}
		time.Sleep(time.Second)
		synctest.Wait()

		got := r.readOrder(t, o.ID)
		if got.Status != order.Paid || got.PaymentID != "pay_hook" || got.UpdatedAt.Before(o.Deadline) {
			t.Fatalf("order: got %s, payment %q, at %s; want paid by pay_hook at or after %s",
				got.Status, got.PaymentID, got.UpdatedAt, o.Deadline)
		}
		r.wantSKU(t, "a", 7, 0, 3)
		r.wantStatus(t, c.ID, coupon.Used, "coupon")
		if got := len(r.events(t, store.EventOrderClosed)); got != 0 {
			t.Fatalf("order.closed events: got %d, want 0", got)
		}
		if ev, ok := r.events(t, store.EventOrderPaid)[o.ID]; !ok || ev.Time.Before(o.Deadline) {
			t.Fatalf("order.paid event: got %+v (found %v), want one at or after %s", ev, ok, o.Deadline)
		}
		if got := h.askedAbout(); len(got) != 1 || got[0] != o.ID {
			t.Fatalf("hook asked about: got %v, want [%s]", got, o.ID)
		}
		if got := metric(t, r.reg, "lapse_payment_checks_total", "result", "paid"); got != 1 {
			t.Fatalf("paid checks: got %v, want 1", got)
		}
	})
}

// TestHookSaysUnpaid: an order the payment system reports unpaid closes on
// timeout at its deadline, never before.
func TestHookSaysUnpaid(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHook(t, answerUnpaid)
		r, c := paymentRig(t, h, engine.Config{})
		o := r.order(t, "u1", 3, []string{c.ID}, 5*time.Second+500*time.Millisecond)

		untilJustBefore(o.Deadline)
		if got := r.readOrder(t, o.ID).Status; got != order.Unpaid {
			t.Fatalf("1ms before the deadline: got %s, want unpaid", got)
		}
		r.wantSKU(t, "a", 7, 3, 0)
		time.Sleep(time.Second)
		synctest.Wait()

		got := r.readOrder(t, o.ID)
		if got.Status != order.Closed || got.CloseReason != order.ReasonTimeout {
			t.Fatalf("order: got %s (%q), want closed (timeout)", got.Status, got.CloseReason)
		}
		ev := r.events(t, store.EventOrderClosed)[o.ID]
		if ev.Time.Before(o.Deadline) || ev.Time.Sub(o.Deadline) > 2*tick {
			t.Fatalf("order.closed at %s, want within %s after the deadline %s", ev.Time, 2*tick, o.Deadline)
		}
		r.wantSKU(t, "a", 10, 0, 0)
		r.wantStatus(t, c.ID, coupon.Unused, "coupon")
		if got := h.calls.Load(); got != 1 {
			t.Fatalf("hook calls: got %d, want 1", got)
		}
		if got := metric(t, r.reg, "lapse_order_unconfirmed_closes_total"); got != 0 {
			t.Fatalf("unconfirmed closes: got %v, want 0", got)
		}
	})
}

// TestHookDownWaitsOutTheGrace: while the hook fails the order stays
// unpaid and is asked about again; once the grace has passed it is
// closed, and counted.
func TestHookDownWaitsOutTheGrace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const grace = 10 * time.Second
		h := newHook(t, answerDown)
		r, c := paymentRig(t, h, engine.Config{PaymentGrace: grace})
		o := r.order(t, "u1", 3, []string{c.ID}, 5*time.Second)

		untilJustBefore(o.Deadline.Add(grace))
		if got := r.readOrder(t, o.ID).Status; got != order.Unpaid {
			t.Fatalf("1ms before the grace ends: got %s, want unpaid", got)
		}
		r.wantSKU(t, "a", 7, 3, 0)
		calls := h.calls.Load()
		if calls < 4 {
			t.Fatalf("hook calls within the grace: got %d, want at least 4", calls)
		}
		time.Sleep(time.Second)
		synctest.Wait()

		got := r.readOrder(t, o.ID)
		if got.Status != order.Closed || got.CloseReason != order.ReasonTimeout {
			t.Fatalf("order: got %s (%q), want closed (timeout)", got.Status, got.CloseReason)
		}
		r.wantSKU(t, "a", 10, 0, 0)
		r.wantStatus(t, c.ID, coupon.Unused, "coupon")
		if got := metric(t, r.reg, "lapse_order_unconfirmed_closes_total"); got != 1 {
			t.Fatalf("unconfirmed closes: got %v, want 1", got)
		}
		if got, want := metric(t, r.reg, "lapse_payment_checks_total", "result", "error"), float64(h.calls.Load()); got != want {
			t.Fatalf("failed checks: got %v, want %v (one per hook call)", got, want)
		}
	})
}

// TestHookTooSlowIsAFailure: an answer that comes after PaymentTimeout is
// not waited for, even one that says paid.
func TestHookTooSlowIsAFailure(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const grace = 5 * time.Second
		h := newHook(t, answerAfter(2*time.Second))
		r, c := paymentRig(t, h, engine.Config{PaymentTimeout: time.Second, PaymentGrace: grace})
		o := r.order(t, "u1", 3, []string{c.ID}, 5*time.Second)

		time.Sleep(time.Until(o.Deadline.Add(grace + 2*time.Second)))
		synctest.Wait()
		got := r.readOrder(t, o.ID)
		if got.Status != order.Closed || got.CloseReason != order.ReasonTimeout {
			t.Fatalf("order: got %s (%q), want closed (timeout)", got.Status, got.CloseReason)
		}
		r.wantSKU(t, "a", 10, 0, 0)
		if got := metric(t, r.reg, "lapse_order_unconfirmed_closes_total"); got != 1 {
			t.Fatalf("unconfirmed closes: got %v, want 1", got)
		}
		if got := metric(t, r.reg, "lapse_payment_checks_total", "result", "error"); got < 2 {
			t.Fatalf("failed checks: got %v, want at least 2", got)
		}
		if got := metric(t, r.reg, "lapse_payment_checks_total", "result", "paid"); got != 0 {
			t.Fatalf("paid checks: got %v, want 0", got)
		}
	})
}

// TestHangingHookLeavesCouponExpiry: while the order-close worker waits on
// a hook that does not answer, coupons still expire on time.
func TestHangingHookLeavesCouponExpiry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHook(t, answerNever)
		r, _ := paymentRig(t, h, engine.Config{PaymentTimeout: 5 * time.Minute, PaymentGrace: 30 * time.Minute})
		o := r.order(t, "u1", 3, nil, time.Second)
		other := r.template(t, coupon.Template{Duration: 2 * time.Second})
		var coupons []coupon.Coupon
		for range 3 {
			coupons = append(coupons, r.claim(t, other.ID, "u2"))
			time.Sleep(700 * time.Millisecond)
		}
		last := coupons[len(coupons)-1]
		time.Sleep(time.Until(last.ExpiresAt) + time.Second)
		synctest.Wait()

		if got := h.calls.Load(); got != 1 {
			t.Fatalf("hook calls: got %d, want 1 (still hanging)", got)
		}
		if got := r.readOrder(t, o.ID).Status; got != order.Unpaid {
			t.Fatalf("order while the hook hangs: got %s, want unpaid", got)
		}
		expired := r.events(t, store.EventCouponExpired)
		for _, c := range coupons {
			e, ok := expired[c.ID]
			if !ok {
				t.Fatalf("coupon %s: no coupon.expired event while the hook hangs", c.ID)
			}
			if e.Time.Before(c.ExpiresAt) || e.Time.Sub(c.ExpiresAt) > 2*tick {
				t.Fatalf("coupon %s expired at %s, want within %s after %s", c.ID, e.Time, 2*tick, c.ExpiresAt)
			}
		}
	})
}

// TestHookBacklogInOnePass: more orders due at once than a batch holds all
// close at their deadline, batch after batch, not one batch per sweep.
func TestHookBacklogInOnePass(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHook(t, answerUnpaid)
		r, _ := paymentRig(t, h, engine.Config{BatchSize: 2})
		deadline := 5 * time.Second
		var orders []order.Order
		for i := range 5 {
			orders = append(orders, r.order(t, fmt.Sprintf("v%d", i), 1, nil, deadline))
		}
		time.Sleep(deadline + time.Second)
		synctest.Wait()
		for _, o := range orders {
			if got := r.readOrder(t, o.ID).Status; got != order.Closed {
				t.Fatalf("order %s a second past its deadline: got %s, want closed", o.ID, got)
			}
		}
		r.wantSKU(t, "a", 10, 0, 0)
	})
}
