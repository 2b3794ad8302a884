package httpapi

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/lapsehq/lapse/store"
)

// TestWalletRefusesLapseOrders: on every store, the wallet routes refuse
// with 409 invalid-state, changing nothing, a lock, unlock, redeem or
// refund that names a lapse order: its coupons move only with it (a
// redeem for an unpaid order used to succeed, and the coupon stayed used
// once the order timed out; a refund for a paid one made the coupon
// unused, for a second order to spend).
func TestWalletRefusesLapseOrders(t *testing.T) {
	onEveryStore(t, func(t *testing.T, e *env) {
		o, c, watched := e.couponOrder(3, 1000)
		free := e.claim("u1", e.template(hourTemplate))
		watched = append(watched, "/v1/coupons/"+free.ID)
		refused := func(id, action, body string) {
			t.Helper()
			before := e.snapshot(watched...)
			e.problem(e.post("/v1/coupons/"+id+"/"+action, body), http.StatusConflict, "invalid-state")
			if after := e.snapshot(watched...); after != before {
				t.Fatalf("%s of %s for order %s changed state:\n before %s\n after %s", action, id, o.ID, before, after)
			}
		}
		forOrder := `{"order_id": "` + o.ID + `"}`
		refused(c.ID, "redeem", forOrder)
		refused(c.ID, "unlock", forOrder)
		refused(free.ID, "lock", `{"order_id": "`+o.ID+`", "ttl": "15m"}`)
		refused(free.ID, "redeem", forOrder)
		e.ok(e.pay(o.ID, "p1", o.AmountDue), http.StatusOK, &orderJSON{})
		refused(c.ID, "refund", forOrder)
		if got, _ := e.coupon(c.ID); got.Status != "used" {
			t.Fatalf("coupon of the paid order: got %s, want used", got.Status)
		}
		var got couponJSON
		e.ok(e.post("/v1/coupons/"+free.ID+"/redeem", `{"order_id": "outside-1"}`), http.StatusOK, &got)
		if got.Status != "used" {
			t.Fatalf("redeem for an outside order: got %s, want used", got.Status)
		}
	})
}

// TestLatePaymentLongPaymentID: on every store, a payment to a closed
// order whose payment_id is long (a Stripe-style 27 bytes, or the 128 the
// input rules allow) is refused with order-closed and recorded once as
// order.late_payment (on MariaDB its event's ID overflowed its column,
// and the 409 was answered with nothing recorded).
func TestLatePaymentLongPaymentID(t *testing.T) {
	onEveryStore(t, func(t *testing.T, e *env) {
		o, _, _ := e.couponOrder(3, 1000)
		e.ok(e.post("/v1/orders/"+o.ID+"/cancel", ""), http.StatusOK, &orderJSON{})
		pids := []string{"pi_3MtwBwLkdIwHu7ix28a3tqPa", strings.Repeat("p", 128)}
		for _, pid := range pids {
			e.problem(e.pay(o.ID, pid, o.AmountDue), http.StatusConflict, "order-closed")
			e.problem(e.pay(o.ID, pid, o.AmountDue), http.StatusConflict, "order-closed")
		}
		late := e.eventsOf(store.EventOrderLatePayment)
		if len(late) != len(pids) {
			t.Fatalf("order.late_payment events: got %d, want %d", len(late), len(pids))
		}
		for i, raw := range late {
			var d store.OrderEventData
			if err := json.Unmarshal(raw, &d); err != nil || d.PaymentID != pids[i] {
				t.Fatalf("late payment %d: got %s (%v), want payment %s", i, raw, err, pids[i])
			}
		}
	})
}
