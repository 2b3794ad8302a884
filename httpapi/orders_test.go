package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lapsehq/lapse/driver/sqlite"
	"github.com/lapsehq/lapse/input"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/store"
)

// putSKU sets a SKU's stock.
func (e *env) putSKU(sku string, stock int64) skuJSON {
	e.t.Helper()
	return okJSON[skuJSON](e, e.do(http.MethodPut, "/v1/skus/"+sku, fmt.Sprintf(`{"stock": %d}`, stock)), http.StatusOK)
}

// sku reads a SKU's counters.
func (e *env) sku(sku string) skuJSON {
	e.t.Helper()
	return okJSON[skuJSON](e, e.get("/v1/skus/"+sku), http.StatusOK)
}

// wantSKU fails unless sku reads available, reserved, sold.
func (e *env) wantSKU(sku string, available, reserved, sold int64) {
	e.t.Helper()
	got := e.sku(sku)
	// The counters: TestPutSKUBuckets checks the bucket count.
	want := skuJSON{SKU: sku, Available: available, Reserved: reserved, Sold: sold, Buckets: got.Buckets}
	if got != want {
		e.t.Fatalf("sku %s: got %+v, want %+v", sku, got, want)
	}
}

// createOrder creates an order from body, returning it and the raw answer.
func (e *env) createOrder(body string, header ...string) (orderJSON, string) {
	e.t.Helper()
	res := e.post("/v1/orders", body, header...)
	var o orderJSON
	e.ok(res, http.StatusCreated, &o)
	return o, string(res.body)
}

// order reads an order.
func (e *env) order(id string) orderJSON {
	e.t.Helper()
	return okJSON[orderJSON](e, e.get("/v1/orders/"+id), http.StatusOK)
}

// pay pays an order and returns the answer.
func (e *env) pay(id, paymentID string, amount int64, header ...string) response {
	e.t.Helper()
	return e.post("/v1/orders/"+id+"/pay", fmt.Sprintf(`{"payment_id": %q, "amount": %d}`, paymentID, amount), header...)
}

// couponOrder stocks SKU "a" with 10 and creates u1's order of qty of it
// at price each, with a coupon worth 2000. It returns the order, the
// coupon, and the paths a refused request must leave as they were.
func (e *env) couponOrder(qty, price int64) (orderJSON, couponJSON, []string) {
	e.t.Helper()
	e.putSKU("a", 10)
	c := e.claim("u1", e.template(hourTemplate))
	o, _ := e.createOrder(orderBody("u1", []order.Item{{SKU: "a", Qty: qty, UnitPrice: price}}, []string{c.ID}, ""))
	return o, c, []string{"/v1/skus/a", "/v1/orders/" + o.ID, "/v1/coupons/" + c.ID}
}

// state reads the resources at paths, to compare before and after a
// request.
func (e *env) state(paths ...string) string {
	e.t.Helper()
	var b strings.Builder
	for _, p := range paths {
		res := e.get(p)
		fmt.Fprintf(&b, "%s: %d %s\n", p, res.status, withoutRequestID(res.body))
	}
	return b.String()
}

// snapshot is state and the end of the event feed: what a refused request
// must leave as it was.
func (e *env) snapshot(paths ...string) string {
	e.t.Helper()
	return e.state(paths...) + "events next: " + e.events("/v1/events?limit=1000").Next
}

// eventsOf returns the events of typ, in feed order.
func (e *env) eventsOf(typ string) []json.RawMessage {
	e.t.Helper()
	var out []json.RawMessage
	for _, ev := range e.events("/v1/events?limit=1000").Events {
		if ev.Type == typ {
			out = append(out, ev.Data)
		}
	}
	return out
}

// parseTime reads a time the API wrote.
func parseTime(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatalf("parse time %q: %v", s, err)
	}
	return v
}

// items reads specs "sku:qty:unit_price" into order items.
func items(t *testing.T, specs ...string) []order.Item {
	t.Helper()
	var out []order.Item
	for _, spec := range specs {
		var it order.Item
		if _, err := fmt.Sscanf(strings.ReplaceAll(spec, ":", " "), "%s %d %d", &it.SKU, &it.Qty, &it.UnitPrice); err != nil {
			t.Fatalf("item spec %q: %v", spec, err)
		}
		out = append(out, it)
	}
	return out
}

// orderBody is a create-order body; extra holds more JSON fields.
func orderBody(user string, items []order.Item, couponIDs []string, extra string) string {
	b := mustJSON(struct {
		UserID    string       `json:"user_id"`
		Items     []order.Item `json:"items"`
		CouponIDs []string     `json:"coupon_ids,omitempty"`
	}{user, items, couponIDs})
	if extra == "" {
		return string(b)
	}
	return strings.TrimSuffix(string(b), "}") + ", " + extra + "}"
}

func TestPutSKU(t *testing.T) {
	e := setup(t)
	res := e.do(http.MethodPut, "/v1/skus/a", `{"stock": 10}`)
	if want := `{"sku":"a","available":10,"reserved":0,"sold":0,"buckets":1}`; res.status != http.StatusOK || string(res.body) != want {
		t.Fatalf("put: got %d %s, want 200 %s", res.status, res.body, want)
	}
	e.wantSKU("a", 10, 0, 0)

	sold, _ := e.createOrder(orderBody("u1", items(t, "a:2:100"), nil, ""))
	e.ok(e.pay(sold.ID, "p1", 200), http.StatusOK, &orderJSON{})
	e.createOrder(orderBody("u1", items(t, "a:3:100"), nil, ""))
	e.wantSKU("a", 5, 3, 2)

	if got, want := e.putSKU("a", 20), (skuJSON{SKU: "a", Available: 15, Reserved: 3, Sold: 2, Buckets: 1}); got != want {
		t.Fatalf("restock up: got %+v, want %+v", got, want)
	}
	if got, want := e.putSKU("a", 5), (skuJSON{SKU: "a", Available: 0, Reserved: 3, Sold: 2, Buckets: 1}); got != want {
		t.Fatalf("restock to reserved + sold: got %+v, want %+v", got, want)
	}
	e.wantSKU("a", 0, 3, 2)
}

func TestPutSKURejected(t *testing.T) {
	e := setup(t)
	e.putSKU("a", 10)
	o, _ := e.createOrder(orderBody("u1", items(t, "a:2:100"), nil, ""))
	e.ok(e.pay(o.ID, "p1", 200), http.StatusOK, &orderJSON{})
	e.createOrder(orderBody("u1", items(t, "a:3:100"), nil, ""))

	cases := []struct {
		sku, body string
		status    int
		slug      string
	}{
		{"a", `{"stock": 4}`, 422, "invalid"},
		{"a", `{"stock": -1}`, 422, "invalid"},
		{"a", `{}`, 422, "invalid"},
		{"a", ``, 422, "invalid"},
		{"a", `{"stock": null}`, 422, "invalid"},
		{"a", `{"stock": "10"}`, 400, "malformed"},
		{"a", `{"stock": 1.5}`, 400, "malformed"},
		{"a", `{"stock": 10, "sold": 0}`, 400, "malformed"},
		{"a", `{"Stock": 10}`, 400, "malformed"},
		{"new", `{"stock": -5}`, 422, "invalid"},
		{"new", `{}`, 422, "invalid"},
		{"new", `[]`, 400, "malformed"},
	}
	for _, c := range cases {
		before := e.snapshot("/v1/skus/a", "/v1/skus/new")
		p := e.problem(e.do(http.MethodPut, "/v1/skus/"+c.sku, c.body), c.status, c.slug)
		if c.slug == "invalid" && !strings.HasPrefix(p.Detail, "stock") {
			t.Fatalf("PUT %s %s: detail %q, want it to name stock", c.sku, c.body, p.Detail)
		}
		if after := e.snapshot("/v1/skus/a", "/v1/skus/new"); after != before {
			t.Fatalf("PUT %s %s changed state:\n before %s\n after %s", c.sku, c.body, before, after)
		}
	}
	e.wantSKU("a", 5, 3, 2)
	e.problem(e.get("/v1/skus/new"), http.StatusNotFound, "not-found")
	e.problem(e.get("/v1/skus/nothing"), http.StatusNotFound, "not-found")
}

// TestPutSKUBuckets: "buckets" splits a SKU's stock, the answer and GET
// give the count and the sums over the buckets, a PUT without it keeps
// the count, and a count out of 1 to 64 is refused, changing nothing.
func TestPutSKUBuckets(t *testing.T) {
	e := setup(t)
	put := func(body string, want skuJSON) {
		t.Helper()
		var got skuJSON
		e.ok(e.do(http.MethodPut, "/v1/skus/a", body), http.StatusOK, &got)
		if got != want {
			t.Fatalf("PUT %s: got %+v, want %+v", body, got, want)
		}
		if got := e.sku("a"); got != want {
			t.Fatalf("GET after PUT %s: got %+v, want %+v", body, got, want)
		}
	}
	put(`{"stock": 10, "buckets": 8}`, skuJSON{SKU: "a", Available: 10, Buckets: 8})
	// More than a bucket's share: the order gathers from several.
	o, _ := e.createOrder(orderBody("u1", items(t, "a:4:100"), nil, ""))
	e.ok(e.pay(o.ID, "p1", 400), http.StatusOK, &orderJSON{})
	e.createOrder(orderBody("u1", items(t, "a:3:100"), nil, ""))
	put(`{"stock": 12}`, skuJSON{SKU: "a", Available: 5, Reserved: 3, Sold: 4, Buckets: 8})
	put(`{"stock": 12, "buckets": 3}`, skuJSON{SKU: "a", Available: 5, Reserved: 3, Sold: 4, Buckets: 3})
	put(`{"stock": 20, "buckets": 64}`, skuJSON{SKU: "a", Available: 13, Reserved: 3, Sold: 4, Buckets: 64})
	put(`{"stock": 20, "buckets": 1}`, skuJSON{SKU: "a", Available: 13, Reserved: 3, Sold: 4, Buckets: 1})

	cases := []struct {
		body   string
		status int
		slug   string
	}{
		{`{"stock": 20, "buckets": 0}`, 422, "invalid"},
		{`{"stock": 20, "buckets": 65}`, 422, "invalid"},
		{`{"stock": 20, "buckets": -1}`, 422, "invalid"},
		{`{"buckets": 4}`, 422, "invalid"},
		{`{"stock": 20, "buckets": "4"}`, 400, "malformed"},
		{`{"stock": 20, "buckets": 1.5}`, 400, "malformed"},
		{`{"stock": 20, "Buckets": 4}`, 400, "malformed"},
	}
	for _, c := range cases {
		before := e.snapshot("/v1/skus/a", "/v1/skus/new")
		e.problem(e.do(http.MethodPut, "/v1/skus/a", c.body), c.status, c.slug)
		e.problem(e.do(http.MethodPut, "/v1/skus/new", c.body), c.status, c.slug)
		if after := e.snapshot("/v1/skus/a", "/v1/skus/new"); after != before {
			t.Fatalf("PUT %s changed state:\n before %s\n after %s", c.body, before, after)
		}
	}
	if p := e.problem(e.do(http.MethodPut, "/v1/skus/a", `{"stock": 20, "buckets": 65}`), 422, "invalid"); !strings.HasPrefix(p.Detail, "buckets") {
		t.Fatalf("detail %q, want it to name buckets", p.Detail)
	}
	// Below reserved + sold: neither the stock nor the count changes.
	e.problem(e.do(http.MethodPut, "/v1/skus/a", `{"stock": 6, "buckets": 4}`), 422, "invalid")
	put(`{"stock": 7}`, skuJSON{SKU: "a", Available: 0, Reserved: 3, Sold: 4, Buckets: 1})
}

func TestCreateOrder(t *testing.T) {
	e := setup(t)
	e.putSKU("a", 10)
	e.putSKU("b", 5)
	tpl := e.template(`{"name": "n", "value": 500, "min_spend": 3300, "validity": {"duration": "1h"}}`)
	c := e.claim("u1", tpl)

	o, body := e.createOrder(orderBody("u1", items(t, "b:1:300", "a:2:1500"), []string{c.ID}, `"timeout": "10m"`))
	if !strings.HasPrefix(o.ID, "ord_") {
		t.Fatalf("id: got %q, want an ord_ id", o.ID)
	}
	deadline := t0.Add(10 * time.Minute)
	want := `{"id":"` + o.ID + `","user_id":"u1","status":"unpaid","close_reason":null,` +
		`"items":[{"sku":"b","qty":1,"unit_price":300},{"sku":"a","qty":2,"unit_price":1500}],` +
		`"coupon_ids":["` + c.ID + `"],"total":3300,"discount":500,"amount_due":2800,` +
		`"deadline":"` + ms(deadline) + `","created_at":"` + ms(t0) + `","updated_at":"` + ms(t0) + `"}`
	if body != want {
		t.Fatalf("created:\n got %s\nwant %s", body, want)
	}
	if got := e.get("/v1/orders/" + o.ID); string(got.body) != want {
		t.Fatalf("read back:\n got %s\nwant %s", got.body, want)
	}
	e.wantSKU("a", 8, 2, 0)
	e.wantSKU("b", 4, 1, 0)

	locked, _ := e.coupon(c.ID)
	if locked.Status != "locked" || deref(locked.OrderID) != o.ID {
		t.Fatalf("coupon: got %s for order %q, want locked for %s", locked.Status, deref(locked.OrderID), o.ID)
	}
	if until := parseTime(t, deref(locked.LockedUntil)); until.Before(parseTime(t, o.Deadline)) {
		t.Fatalf("coupon locked_until %s is before the order's deadline %s", until, o.Deadline)
	}
	if got := len(e.eventsOf(store.EventOrderCreated)); got != 1 {
		t.Fatalf("order.created events: got %d, want 1", got)
	}
	e.problem(e.get("/v1/orders/ord_nothing"), http.StatusNotFound, "not-found")
}

func TestCreateOrderDeadline(t *testing.T) {
	e := setup(t)
	e.putSKU("a", 100)
	cases := []struct {
		extra string
		want  time.Time
	}{
		{``, t0.Add(30 * time.Minute)},
		{`"timeout": "2s"`, t0.Add(2 * time.Second)},
		{`"timeout": null`, t0.Add(30 * time.Minute)},
		{`"timeout": "72h"`, t0.Add(72 * time.Hour)},
		{`"deadline": "2026-11-11T00:00:00+08:00"`, time.Date(2026, 11, 10, 16, 0, 0, 0, time.UTC)},
		{`"deadline": "2026-11-01T08:00:00.124Z"`, time.Date(2026, 11, 1, 8, 0, 0, 124_000_000, time.UTC)},
		{`"deadline": "2026-11-01T08:00:00.124999999Z"`, time.Date(2026, 11, 1, 8, 0, 0, 124_000_000, time.UTC)},
	}
	for _, c := range cases {
		o, _ := e.createOrder(orderBody("u1", items(t, "a:1:100"), nil, c.extra))
		if o.Deadline != ms(c.want) {
			t.Fatalf("%s: deadline %s, want %s", c.extra, o.Deadline, ms(c.want))
		}
		if got := e.order(o.ID).Deadline; got != ms(c.want) {
			t.Fatalf("%s: stored deadline %s, want %s", c.extra, got, ms(c.want))
		}
	}
}

func TestCreateOrderRejected(t *testing.T) {
	e := setup(t)
	e.putSKU("a", 10)
	e.putSKU("b", 5)
	tpl := e.template(`{"name": "n", "value": 500, "min_spend": 1000, "validity": {"duration": "1h"}}`)
	short := e.template(`{"name": "n", "value": 500, "validity": {"duration": "1m"}}`)
	mine, theirs, held := e.claim("u1", tpl).ID, e.claim("u2", tpl).ID, e.claim("u1", tpl).ID
	expired := e.claim("u1", short).ID
	e.clock.Add(2 * time.Minute) // expired's expires_at has passed
	holder, _ := e.createOrder(orderBody("u1", items(t, "a:1:1000"), []string{held}, ""))

	a1 := items(t, "a:1:1000")
	cases := []rejection{
		{orderBody("u1", items(t, "a:1:100", "zz:1:100"), nil, ""), 422, "invalid", "items[1].sku"},
		// "a" is reserved before "nope" fails: the failure must undo it.
		{orderBody("u1", items(t, "nope:1:100", "a:1:100"), nil, ""), 422, "invalid", "items[0].sku"},
		{orderBody("u1", items(t, "a:0:100"), nil, ""), 422, "invalid", "items[0].qty"},
		{orderBody("u1", items(t, "b:1:100", "a:-1:100"), nil, ""), 422, "invalid", "items[1].qty"},
		{orderBody("u1", items(t, "a:1:-1"), nil, ""), 422, "invalid", "items[0].unit_price"},
		{orderBody("u1", items(t, "a:1:100", "a:1:100"), nil, ""), 422, "invalid", "items[1].sku"},
		{orderBody("u1", nil, nil, ""), 422, "invalid", "items"},
		{orderBody("", a1, nil, ""), 422, "invalid", "user_id"},
		{orderBody("u1", a1, nil, `"timeout": "10m", "deadline": "2026-12-01T00:00:00Z"`), 422, "invalid", "timeout"},
		{orderBody("u1", a1, nil, `"timeout": "0s"`), 422, "invalid", "timeout"},
		{orderBody("u1", a1, nil, `"timeout": "-1m"`), 422, "invalid", "timeout"},
		{orderBody("u1", a1, nil, `"deadline": "2026-11-01T08:00:00Z"`), 422, "invalid", "deadline"},
		{orderBody("u1", a1, nil, `"deadline": "`+ms(t0.Add(2*time.Minute))+`"`), 422, "invalid", "deadline"},
		{orderBody("u1", a1, []string{theirs}, ""), 422, "invalid", "coupon_ids[0]"},
		{orderBody("u1", items(t, "a:1:999"), []string{mine}, ""), 422, "invalid", "coupon_ids[0]"},
		{orderBody("u1", a1, []string{mine, mine}, ""), 422, "invalid", "coupon_ids[1]"},
		{orderBody("u1", a1, []string{mine, "cpn_nothing"}, ""), 422, "invalid", "coupon_ids[1]"},
		{orderBody("u1", a1, []string{mine, expired}, ""), 409, "coupon-expired", ""},
		{orderBody("u1", a1, []string{held}, ""), 409, "invalid-state", ""},
		{orderBody("u1", items(t, "a:11:100"), nil, ""), 409, "insufficient-stock", ""},
		// The second item fails after the first has reserved its stock.
		{orderBody("u1", items(t, "b:6:200", "a:2:200"), []string{mine}, ""), 409, "insufficient-stock", ""},
		{`{"user_id": 1, "items": [{"sku": "a", "qty": 1, "unit_price": 1}]}`, 400, "malformed", ""},
		{`{"user_id": "u1", "items": [{"sku": "a", "qty": 1, "unit_price": 1, "price": 1}]}`, 400, "malformed", ""},
		{`{"user_id": "u1", "items": [{"sku": "a", "qty": 1.5, "unit_price": 1}]}`, 400, "malformed", ""},
		{`{"user_id": "u1", "items": [{"sku": "a", "qty": 1, "unit_price": 1}], "timeout": 30}`, 400, "malformed", ""},
		{`{"user_id": "u1", "items": [{"sku": "a", "qty": 1, "unit_price": 1}], "timeout": "soon"}`, 400, "malformed", ""},
		{`{"user_id": "u1", "items": [{"sku": "a", "qty": 1, "unit_price": 1}], "deadline": "tomorrow"}`, 400, "malformed", ""},
		{`{"user_id": "u1", "items": {"sku": "a"}}`, 400, "malformed", ""},
		{`{"user_id": "u1"`, 400, "malformed", ""},
	}
	watched := []string{"/v1/skus/a", "/v1/skus/b", "/v1/orders/" + holder.ID,
		"/v1/coupons/" + mine, "/v1/coupons/" + theirs, "/v1/coupons/" + held, "/v1/coupons/" + expired}
	e.wantRejected(cases, func(body string) response {
		before := e.snapshot(watched...)
		res := e.post("/v1/orders", body)
		if after := e.snapshot(watched...); after != before {
			t.Fatalf("%s changed state:\n before %s\n after %s", body, before, after)
		}
		return res
	})
	e.wantSKU("a", 9, 1, 0)
	e.wantSKU("b", 5, 0, 0)
	if got := len(e.eventsOf(store.EventOrderCreated)); got != 1 {
		t.Fatalf("order.created events: got %d, want 1", got)
	}
}

// TestCreateOrderFarDeadline: a presale deadline centuries away must
// either be refused or lock the coupon until at least that deadline.
func TestCreateOrderFarDeadline(t *testing.T) {
	for _, extra := range []string{`"deadline": "2500-01-01T00:00:00Z"`, `"timeout": "2562047h"`} {
		e := setup(t)
		e.putSKU("a", 10)
		c := e.claim("u1", e.template(hourTemplate))
		watched := []string{"/v1/skus/a", "/v1/coupons/" + c.ID}
		before := e.snapshot(watched...)
		res := e.post("/v1/orders", orderBody("u1", items(t, "a:1:3000"), []string{c.ID}, extra))
		if res.status != http.StatusCreated {
			p := e.problem(res, http.StatusUnprocessableEntity, "invalid")
			if !strings.HasPrefix(p.Detail, "deadline") && !strings.HasPrefix(p.Detail, "timeout") {
				t.Fatalf("%s: detail %q, want it to name deadline or timeout", extra, p.Detail)
			}
			if after := e.snapshot(watched...); after != before {
				t.Fatalf("%s: refusal changed state:\n before %s\n after %s", extra, before, after)
			}
			continue
		}
		var o orderJSON
		e.ok(res, http.StatusCreated, &o)
		locked, _ := e.coupon(c.ID)
		if until := parseTime(t, deref(locked.LockedUntil)); until.Before(parseTime(t, o.Deadline)) {
			t.Fatalf("%s: coupon locked_until %s is before the order's deadline %s", extra, until, o.Deadline)
		}
	}
}

// TestCreateOrderTotalOverflow: items each within the limits whose total
// does not fit an int64 must be refused, not priced at a wrapped total.
func TestCreateOrderTotalOverflow(t *testing.T) {
	e := setup(t)
	var specs, watched []string
	for i := range order.MaxItems {
		sku := fmt.Sprintf("s%03d", i)
		e.putSKU(sku, order.MaxQty)
		specs = append(specs, fmt.Sprintf("%s:%d:%d", sku, order.MaxQty, order.MaxPrice))
		watched = append(watched, "/v1/skus/"+sku)
	}
	before := e.snapshot(watched...)
	res := e.post("/v1/orders", orderBody("u1", items(t, specs...), nil, ""))
	e.problem(res, http.StatusUnprocessableEntity, "invalid")
	if after := e.snapshot(watched...); after != before {
		t.Fatalf("refusal changed state:\n before %s\n after %s", before, after)
	}
}

func TestPayOrder(t *testing.T) {
	e := setup(t)
	o, c, watched := e.couponOrder(3, 1600)
	if o.AmountDue != 2800 {
		t.Fatalf("amount_due: got %d, want 2800", o.AmountDue)
	}
	refusals := []struct {
		body  string
		field string
	}{
		{`{"payment_id": "p1", "amount": 2799}`, "amount"},
		{`{"payment_id": "p1", "amount": 4800}`, "amount"},
		{`{"payment_id": "p1", "amount": 0}`, "amount"},
		{`{"payment_id": "p1"}`, "amount"},
		{`{"amount": 2800}`, "payment_id"},
		{``, "amount"},
	}
	for _, r := range refusals {
		before := e.snapshot(watched...)
		p := e.problem(e.post("/v1/orders/"+o.ID+"/pay", r.body), http.StatusUnprocessableEntity, "invalid")
		if !strings.HasPrefix(p.Detail, r.field) {
			t.Fatalf("%s: detail %q, want it to name %s", r.body, p.Detail, r.field)
		}
		if after := e.snapshot(watched...); after != before {
			t.Fatalf("%s changed state:\n before %s\n after %s", r.body, before, after)
		}
	}
	for _, body := range []string{`{"payment_id": "p1", "amount": "2800"}`, `{"payment_id": "p1", "amount": 2800, "x": 1}`} {
		e.problem(e.post("/v1/orders/"+o.ID+"/pay", body), http.StatusBadRequest, "malformed")
	}
	e.problem(e.pay("ord_nothing", "p1", 2800), http.StatusNotFound, "not-found")

	e.clock.Add(time.Minute)
	var paid orderJSON
	e.ok(e.pay(o.ID, "p1", 2800), http.StatusOK, &paid)
	if paid.Status != "paid" || paid.CloseReason != nil || paid.UpdatedAt != ms(t0.Add(time.Minute)) {
		t.Fatalf("paid: got status %s, close_reason %v, updated_at %s", paid.Status, paid.CloseReason, paid.UpdatedAt)
	}
	if got := e.order(o.ID); got.Status != "paid" {
		t.Fatalf("read back: got %s, want paid", got.Status)
	}
	e.wantSKU("a", 7, 0, 3)
	if got, _ := e.coupon(c.ID); got.Status != "used" || deref(got.OrderID) != o.ID {
		t.Fatalf("coupon: got %s for %q, want used for %s", got.Status, deref(got.OrderID), o.ID)
	}

	before := e.snapshot(watched...)
	e.problem(e.pay(o.ID, "p1", 2800), http.StatusConflict, "invalid-state")
	e.problem(e.pay(o.ID, "p2", 2800), http.StatusConflict, "invalid-state")
	e.problem(e.post("/v1/orders/"+o.ID+"/cancel", ""), http.StatusConflict, "invalid-state")
	if after := e.snapshot(watched...); after != before {
		t.Fatalf("refusals after pay changed state:\n before %s\n after %s", before, after)
	}
	if got := len(e.eventsOf(store.EventOrderPaid)); got != 1 {
		t.Fatalf("order.paid events: got %d, want 1", got)
	}
}

func TestCancelOrder(t *testing.T) {
	e := setup(t)
	o, c, watched := e.couponOrder(3, 1000)
	e.clock.Add(time.Minute)

	var closed orderJSON
	e.ok(e.post("/v1/orders/"+o.ID+"/cancel", ""), http.StatusOK, &closed)
	if closed.Status != "closed" || deref(closed.CloseReason) != "cancelled" {
		t.Fatalf("cancelled: got %s (%s), want closed (cancelled)", closed.Status, deref(closed.CloseReason))
	}
	if got := e.order(o.ID); got.Status != "closed" || deref(got.CloseReason) != "cancelled" {
		t.Fatalf("read back: got %s (%s), want closed (cancelled)", got.Status, deref(got.CloseReason))
	}
	e.wantSKU("a", 10, 0, 0)
	if got, _ := e.coupon(c.ID); got.Status != "unused" || got.OrderID != nil || got.LockedUntil != nil {
		t.Fatalf("coupon: got %+v, want unused with no order and no lock", got)
	}

	before := e.snapshot(watched...)
	e.problem(e.post("/v1/orders/"+o.ID+"/cancel", `{}`), http.StatusConflict, "invalid-state")
	e.problem(e.post("/v1/orders/"+o.ID+"/cancel", `{"reason": "x"}`), http.StatusBadRequest, "malformed")
	e.problem(e.post("/v1/orders/ord_nothing/cancel", ``), http.StatusNotFound, "not-found")
	if after := e.snapshot(watched...); after != before {
		t.Fatalf("refused cancels changed state:\n before %s\n after %s", before, after)
	}
}

func TestLatePayment(t *testing.T) {
	e := setup(t)
	o, _, watched := e.couponOrder(3, 1000)
	e.ok(e.post("/v1/orders/"+o.ID+"/cancel", ""), http.StatusOK, &orderJSON{})
	before := e.state(watched...)

	e.problem(e.pay(o.ID, "pay_late", 1000), http.StatusConflict, "order-closed")
	e.problem(e.pay(o.ID, "pay_late", 1000), http.StatusConflict, "order-closed")
	e.problem(e.pay(o.ID, "pay_late", 1000, "Idempotency-Key", "late-1"), http.StatusConflict, "order-closed")
	late := e.eventsOf(store.EventOrderLatePayment)
	if len(late) != 1 {
		t.Fatalf("order.late_payment events: got %d, want 1", len(late))
	}
	var data store.OrderEventData
	if err := json.Unmarshal(late[0], &data); err != nil || data.PaymentID != "pay_late" || data.Amount != 1000 || data.UserID != "u1" {
		t.Fatalf("late payment data: got %s (%v), want payment pay_late of 1000 by u1", late[0], err)
	}
	e.problem(e.pay(o.ID, "pay_other", 1000), http.StatusConflict, "order-closed")
	if got := len(e.eventsOf(store.EventOrderLatePayment)); got != 2 {
		t.Fatalf("order.late_payment events after a second payment: got %d, want 2", got)
	}
	if got := e.order(o.ID); got.Status != "closed" {
		t.Fatalf("order: got %s, want closed", got.Status)
	}
	// Only the feed moved: the late payments changed no order, stock or coupon.
	if after := e.state(watched...); after != before {
		t.Fatalf("late payment changed state:\n before %s\n after %s", before, after)
	}
}

func TestPayAtDeadline(t *testing.T) {
	e := setup(t)
	e.putSKU("a", 10)
	c := e.claim("u1", e.template(hourTemplate))
	inTime, _ := e.createOrder(orderBody("u1", items(t, "a:1:1000"), nil, `"timeout": "10m"`))
	late, _ := e.createOrder(orderBody("u1", items(t, "a:2:2000"), []string{c.ID}, `"timeout": "10m"`))
	deadline := parseTime(t, late.Deadline)

	e.clock.Set(deadline.Add(-time.Millisecond))
	e.ok(e.pay(inTime.ID, "p1", 1000), http.StatusOK, &orderJSON{})

	watched := []string{"/v1/skus/a", "/v1/orders/" + late.ID, "/v1/coupons/" + c.ID}
	for _, now := range []time.Time{deadline, deadline.Add(time.Hour)} {
		e.clock.Set(now)
		before := e.state(watched...)
		e.problem(e.pay(late.ID, "p2", late.AmountDue), http.StatusConflict, "order-closed")
		if after := e.state(watched...); after != before {
			t.Fatalf("pay at %s changed state:\n before %s\n after %s", now, before, after)
		}
	}
	if got := len(e.eventsOf(store.EventOrderLatePayment)); got != 1 {
		t.Fatalf("order.late_payment events: got %d, want 1", got)
	}
	e.wantSKU("a", 7, 2, 1)
}

func TestIdempotentCreateOrder(t *testing.T) {
	e := setup(t)
	e.putSKU("a", 10)
	body := orderBody("u1", items(t, "a:3:1000"), nil, "")
	e.replay(http.StatusCreated, &orderJSON{}, func() response { return e.post("/v1/orders", body, "Idempotency-Key", "o1") })
	e.wantSKU("a", 7, 3, 0)
	if got := len(e.eventsOf(store.EventOrderCreated)); got != 1 {
		t.Fatalf("order.created events: got %d, want 1", got)
	}
	other := orderBody("u1", items(t, "a:4:1000"), nil, "")
	e.problem(e.post("/v1/orders", other, "Idempotency-Key", "o1"), http.StatusConflict, "idempotency-conflict")
	e.wantSKU("a", 7, 3, 0)
	e.createOrder(body) // no key: a second order
	e.wantSKU("a", 4, 6, 0)
}

func TestIdempotentPay(t *testing.T) {
	e := setup(t)
	e.putSKU("a", 10)
	o, _ := e.createOrder(orderBody("u1", items(t, "a:3:1000"), nil, ""))
	e.replay(http.StatusOK, &orderJSON{}, func() response { return e.pay(o.ID, "p1", 3000, "Idempotency-Key", "pay-1") })
	e.wantSKU("a", 7, 0, 3)
	if got := len(e.eventsOf(store.EventOrderPaid)); got != 1 {
		t.Fatalf("order.paid events: got %d, want 1", got)
	}
	e.problem(e.pay(o.ID, "p1", 3000), http.StatusConflict, "invalid-state") // no key: a new payment
}

// fuzzServer is the API over a fresh store for a fuzz target, stocked
// with SKU "a", and u1 holding a coupon.
func fuzzServer(f *testing.F) (http.Handler, *store.DB, string) {
	d, err := sqlite.Open(context.Background(), filepath.Join(f.TempDir(), "lapse.db"), sqlite.Options{})
	if err != nil {
		f.Fatalf("open store: %v", err)
	}
	st := store.New(d, store.Options{})
	f.Cleanup(func() { st.Close() })
	clock := &fakeClock{now: t0}
	h := New(Config{Store: st, Now: clock.Now})
	if _, err := st.PutSKU(context.Background(), store.PutSKUParams{SKU: "a", Stock: 1_000_000_000, Now: t0}); err != nil {
		f.Fatalf("put sku: %v", err)
	}
	tp, err := decodeTemplate([]byte(hourTemplate), t0)
	if err != nil {
		f.Fatalf("template: %v", err)
	}
	tp, err = st.CreateTemplate(context.Background(), store.CreateTemplateParams{Template: tp, Now: t0})
	if err != nil {
		f.Fatalf("create template: %v", err)
	}
	c, err := st.Claim(context.Background(), store.ClaimParams{TemplateID: tp.ID, UserID: "u1", Now: t0})
	if err != nil {
		f.Fatalf("claim: %v", err)
	}
	return h, st, c.ID
}

// serve answers one request in process.
func serve(h http.Handler, method, path string, body []byte) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, loopbackRequest(method, path, body))
	return rec
}

// loopbackRequest is a request as a client on the server's own machine
// sends it to 127.0.0.1:8080: a change says it is JSON.
func loopbackRequest(method, path string, body []byte) *http.Request {
	r := httptest.NewRequest(method, "http://127.0.0.1:8080"+path, bytes.NewReader(body))
	if method != http.MethodGet {
		r.Header.Set("Content-Type", "application/json")
	}
	local := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}
	return r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, local))
}

// answeredAsInput fails t unless rec is a success of status or a problem
// whose slug is one of slugs: outside input is never the server's fault.
func answeredAsInput(t *testing.T, body []byte, rec *httptest.ResponseRecorder, status int, slugs ...string) {
	t.Helper()
	if rec.Code == status {
		return
	}
	var p problem
	if err := json.Unmarshal(rec.Body.Bytes(), &p); err != nil {
		t.Fatalf("%q: got %d %s, not a problem: %v", body, rec.Code, rec.Body, err)
	}
	for _, s := range append([]string{"malformed", "invalid"}, slugs...) {
		if p.Type == "/problems/"+s && p.Status == rec.Code {
			return
		}
	}
	t.Fatalf("%q: got %d %s, want %d or one of malformed, invalid, %v", body, rec.Code, rec.Body, status, slugs)
}

func FuzzDecodeCreateOrder(f *testing.F) {
	f.Add([]byte(`{"user_id": "u1", "items": [{"sku": "a", "qty": 2, "unit_price": 1500}], "timeout": "10m"}`))
	h, st, couponID := fuzzServer(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		// The seeded coupon id stands in for "COUPON", so that inputs can reach the lock.
		body = []byte(strings.ReplaceAll(string(body), "COUPON", couponID))
		rec := serve(h, http.MethodPost, "/v1/orders", body)
		answeredAsInput(t, body, rec, http.StatusCreated, "insufficient-stock", "coupon-expired", "invalid-state")
		if rec.Code != http.StatusCreated {
			return
		}
		var o orderJSON
		if err := json.Unmarshal(rec.Body.Bytes(), &o); err != nil {
			t.Fatalf("%q: created %s: %v", body, rec.Body, err)
		}
		if o.Total < 0 || o.Discount < 0 || o.Discount > o.Total || o.AmountDue != o.Total-o.Discount {
			t.Fatalf("%q: created total %d, discount %d, amount_due %d", body, o.Total, o.Discount, o.AmountDue)
		}
		ids := append([]string{o.UserID}, o.CouponIDs...)
		for _, it := range o.Items {
			ids = append(ids, it.SKU)
		}
		for _, id := range ids {
			if err := input.ID("id", id); err != nil {
				t.Fatalf("%q: created with %v", body, err)
			}
		}
		// Give the stock and the coupon back for the next input.
		if _, err := st.CloseOrder(context.Background(), store.CloseOrderParams{OrderID: o.ID, Reason: order.ReasonCancelled, Now: t0}); err != nil {
			t.Fatalf("cancel %s: %v", o.ID, err)
		}
	})
}

func FuzzDecodePay(f *testing.F) {
	f.Add([]byte(`{"payment_id": "p1", "amount": 3000}`))
	h, st, _ := fuzzServer(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		o, err := st.CreateOrder(context.Background(), store.CreateOrderParams{UserID: "u1",
			Items: []order.Item{{SKU: "a", Qty: 1, UnitPrice: 3000}}, Deadline: t0.Add(time.Minute), Now: t0})
		if err != nil {
			t.Fatalf("create order: %v", err)
		}
		if p, err := decodePay(body); err == nil {
			p.OrderID = o.ID
			refusedAsInput(t, string(body), p.Validate())
		}
		rec := serve(h, http.MethodPost, "/v1/orders/"+o.ID+"/pay", body)
		answeredAsInput(t, body, rec, http.StatusOK)
		got, err := st.Order(context.Background(), o.ID)
		if err != nil {
			t.Fatalf("read order: %v", err)
		}
		if paid := rec.Code == http.StatusOK; paid != (got.Status == order.Paid) {
			t.Fatalf("%q: answered %d, order %s", body, rec.Code, got.Status)
		}
	})
}

func FuzzDecodeSKU(f *testing.F) {
	f.Add([]byte(`{"stock": 10}`))
	h, st, _ := fuzzServer(f)
	if _, err := st.CreateOrder(context.Background(), store.CreateOrderParams{UserID: "u1",
		Items: []order.Item{{SKU: "a", Qty: 5, UnitPrice: 1}}, Deadline: t0.Add(time.Minute), Now: t0}); err != nil {
		f.Fatalf("create order: %v", err)
	}
	fresh := 0
	f.Fuzz(func(t *testing.T, body []byte) {
		// A new SKU, and one with 5 reserved.
		fresh++
		for _, sku := range []string{fmt.Sprintf("fz%d", fresh), "a"} {
			rec := serve(h, http.MethodPut, "/v1/skus/"+sku, body)
			answeredAsInput(t, body, rec, http.StatusOK)
			if rec.Code != http.StatusOK {
				continue
			}
			var req struct {
				Stock   int64
				Buckets *int
			}
			var k skuJSON
			if json.Unmarshal(body, &req) != nil || json.Unmarshal(rec.Body.Bytes(), &k) != nil {
				t.Fatalf("%q: answered %s", body, rec.Body)
			}
			if k.SKU != sku || k.Available < 0 || k.Available+k.Reserved+k.Sold != req.Stock {
				t.Fatalf("%s %q: stock %d answered as %+v", sku, body, req.Stock, k)
			}
			if k.Buckets < 1 || k.Buckets > order.MaxBuckets || req.Buckets != nil && k.Buckets != *req.Buckets {
				t.Fatalf("%s %q: buckets answered as %d", sku, body, k.Buckets)
			}
		}
	})
}

// TestCreateOrderCouponLockCapped: an order holds its coupons locked
// until its deadline and a coupon locked in time is redeemed past its
// expiry, so, as a lock's ttl, an order's deadline may come at most
// MaxLockTTL after a coupon's expires_at; a refused order changes nothing.
func TestCreateOrderCouponLockCapped(t *testing.T) {
	e := setup(t, func(c *Config) { c.MaxLockTTL = 10 * time.Minute })
	e.putSKU("a", 10)
	tpl := e.template(hourTemplate)
	held := e.claim("u1", tpl) // expires at t0 + 1h
	e.clock.Add(time.Minute)
	kept := e.claim("u1", tpl) // at t0 + 1h1m
	watched := []string{"/v1/skus/a", "/v1/coupons/" + kept.ID, "/v1/coupons/" + held.ID}
	// kept's expires_at + 10m: kept may be held until then, held not.
	deadline := `"deadline": "` + ms(parseTime(t, kept.ExpiresAt).Add(10*time.Minute)) + `"`
	before := e.snapshot(watched...)
	res := e.post("/v1/orders", orderBody("u1", items(t, "a:1:3000"), []string{kept.ID, held.ID}, deadline))
	if p := e.problem(res, http.StatusUnprocessableEntity, "invalid"); !strings.HasPrefix(p.Detail, "coupon_ids[1]") || !strings.Contains(p.Detail, "10m0s") {
		t.Fatalf("deadline past held's expires_at + 10m: detail %q, want it to name coupon_ids[1] and the cap", p.Detail)
	}
	if after := e.snapshot(watched...); after != before {
		t.Fatalf("refusal changed state:\n before %s\n after %s", before, after)
	}
	e.createOrder(orderBody("u1", items(t, "a:1:3000"), []string{kept.ID}, deadline))
	e.createOrder(orderBody("u1", items(t, "a:1:3000"), nil, `"timeout": "240h"`)) // no coupon, no cap
}
