package httpapi

import (
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/lapsehq/lapse/input"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/store/backendtest"
)

// propertyBudget bounds each store's run of TestPropertyAPI: the run stops
// drawing requests once it is spent. It is not a speed asserted.
const propertyBudget = 10 * time.Second

// TestPropertyAPI drives lapse over each store with random requests, good
// and bad: random routes, bodies mixing valid fields with bad IDs, huge
// numbers, bad durations and bad JSON, random Idempotency-Keys, and steps
// of the clock. Whatever the requests, it requires that
//   - no answer is a 5xx;
//   - a 4xx changes nothing: no event is added to the feed, and the SKUs,
//     templates (with their counts), orders and coupons made so far read
//     the same (but for a payment refused as order-closed, which API.md
//     records as an order.late_payment event);
//   - every order answered or read keeps amount_due = total - discount and
//     0 <= discount <= total;
//   - a JSON body made hostile (hostileBody: a key twice, a bad byte, half
//     a surrogate pair) is refused 400 malformed or 422 invalid (unless
//     its route is, before the body is read);
//   - no coupon held by a lapse order is redeemed or refunded outside it:
//     a wallet lock, unlock, redeem or refund naming a lapse order is
//     never answered 2xx, and every paid order's coupons read used by it,
//     every closed order's not;
//   - no coupon a template void marked (locked when the void ran) ever
//     reads unused again;
//   - every payment refused as order-closed has its order.late_payment
//     event in the feed.
func TestPropertyAPI(t *testing.T) {
	bs := backendtest.All(t)
	// A failure is shrunk by replaying requests on a server whose state
	// has moved on since; a few seconds of it are worth what it finds, and
	// keep a failing run near its budget. An explicit -rapid.shrinktime
	// stands.
	if f := flag.Lookup("rapid.shrinktime"); f != nil && f.Value.String() == f.DefValue {
		f.Value.Set((3 * time.Second).String())
		t.Cleanup(func() { f.Value.Set(f.DefValue) })
	}
	for _, b := range bs {
		t.Run(b.Name, func(t *testing.T) {
			w := newWorld(t, b.Name, serveStore(t, b.Open(t)))
			deadline := time.Now().Add(propertyBudget)
			rapid.Check(t, func(rt *rapid.T) {
				for range rapid.IntRange(1, 10).Draw(rt, "requests") {
					if time.Now().After(deadline) {
						return
					}
					w.step(rt)
				}
			})
			t.Logf("%s: %d requests, %d of them refused: %v", b.Name, w.sent, w.refused, w.answers)
			if w.sent < 50 || w.refused == 0 || w.refused == w.sent {
				t.Errorf("%d requests, %d refused: want at least 50, some refused and some not", w.sent, w.refused)
			}
		})
	}
}

// world is what a property run has made on one server, and what it last
// read of it.
type world struct {
	e                          *env
	templates, coupons, orders []string
	cursor                     string // the feed's position read so far
	state                      string // what observe last read
	sent, refused              int
	answers                    map[string]int // how many of each status and slug
	// late holds the (order, payment) of every order.late_payment event
	// the feed showed; pendingVoid the coupons a template void marked,
	// until they read voided or expired.
	late        map[string]bool
	pendingVoid map[string]bool
}

// newWorld stocks SKUs a and b and makes a template, a coupon and an
// order, so that random requests find something to act on.
func newWorld(t *testing.T, name string, e *env) *world {
	t.Helper()
	_, made := runSteps(t, name, e, []step{makeTemplate, makeCoupon, makeSKU, makeOrder,
		{method: "PUT", path: "/v1/skus/b", body: `{"stock": 5}`, want: 200}})
	return &world{e: e, cursor: "0", answers: map[string]int{}, late: map[string]bool{}, pendingVoid: map[string]bool{},
		templates: []string{made["tpl"]}, coupons: []string{made["cpn"]}, orders: []string{made["ord"]}}
}

// request is one drawn request.
type request struct {
	method, path, body string
	header             []string
}

// step sends one random request, or moves the clock, and checks the
// invariants. The clock moves only here, and what reads is read again
// after it moves: a lazy expiry is not a change a request made.
func (w *world) step(rt *rapid.T) {
	if w.state == "" {
		w.state = w.observe(rt)
	}
	if rapid.IntRange(0, 19).Draw(rt, "clock?") == 19 {
		w.e.clock.Add(time.Duration(rapid.IntRange(1, 7200).Draw(rt, "seconds")) * time.Second)
		w.state = w.observe(rt) // lazy expiry reads differently now
		return
	}
	req := w.draw(rt)
	hostile := hostileBody(rt, &req)
	res, err := send(w.e.url, req.method, req.path, req.body, req.header)
	if err != nil {
		rt.Fatalf("%s %s: %v", req.method, short(req.path), err)
	}
	w.sent++
	w.answers[fmt.Sprintf("%d %s", res.status, problemSlug(res))]++
	header := make([]string, len(req.header))
	for i, h := range req.header {
		header[i] = short(h)
	}
	what := fmt.Sprintf("%s %s %q %q", req.method, short(req.path), clip([]byte(req.body)), header)
	if res.status >= 500 {
		rt.Fatalf("%s: got %d %s, never a 5xx", what, res.status, res.body)
	}
	checkMoney(rt, what, res.body)
	if hostile != "" && !refusedBody(res) {
		rt.Fatalf("%s: a body with %s got %d %s, want 400 malformed or 422 invalid", what, hostile, res.status, res.body)
	}
	if res.status >= 400 {
		w.refused++
		if slug := problemSlug(res); slug == "" || strings.HasPrefix(slug, "(") {
			rt.Fatalf("%s: got %d %s, want a problem document", what, res.status, res.body)
		}
		after := w.observe(rt)
		w.checkLatePayment(rt, what, req, problemSlug(res))
		if problemSlug(res) != "order-closed" && after != w.state {
			rt.Fatalf("%s: refused with %d %s, yet it changed what reads:\nbefore %s\nafter  %s", what, res.status, res.body, w.state, after)
		}
		w.state = after
		return
	}
	w.learn(req.method, req.path, res)
	w.checkWallet(rt, what, req)
	if tpl, ok := strings.CutSuffix(strings.TrimPrefix(req.path, "/v1/templates/"), "/void"); ok && res.status == http.StatusAccepted {
		w.workVoid(rt, tpl)
	}
	w.state = w.observe(rt)
}

// hostileBody may make req's JSON object body one encoding/json would
// read leniently (issue 23): its first key given twice, or a bad byte or
// half a surrogate pair at the start of its first string. It says which,
// or "" if it left req alone.
func hostileBody(rt *rapid.T, req *request) string {
	if !slices.Contains(req.header, "application/json") || !strings.HasPrefix(req.body, `{"`) {
		return ""
	}
	switch rapid.IntRange(0, 29).Draw(rt, "hostile?") {
	case 0:
		dec := json.NewDecoder(strings.NewReader(req.body))
		var raw json.RawMessage
		if _, err := dec.Token(); err != nil {
			return ""
		}
		if _, err := dec.Token(); err != nil || dec.Decode(&raw) != nil {
			return ""
		}
		end := dec.InputOffset()
		req.body = req.body[:end] + ", " + req.body[1:end] + req.body[end:]
		return "a key given twice"
	case 1, 2:
		i := strings.Index(req.body, `": "`)
		if i < 0 {
			return ""
		}
		bad := oneOf(rt, "bad text", "\xff", `\ud800`)
		req.body = req.body[:i+4] + bad + req.body[i+4:]
		return fmt.Sprintf("%q in a string", bad)
	}
	return ""
}

// refusedBody reports whether res refuses a request's body, 400 malformed
// or 422 invalid, or its route before reading the body (no such route,
// method not allowed, a redirect to the cleaned path).
func refusedBody(res response) bool {
	if res.status >= 300 && res.status < 400 {
		return true
	}
	switch problemSlug(res) {
	case "malformed", "invalid", "method-not-allowed":
		return true
	case "not-found":
		return strings.Contains(string(res.body), "no such route")
	}
	return false
}

// prelude sends reqs, which set the stage for a drawn request: each may
// be refused, none may fail; a template void is worked. What they change
// is what the drawn request starts from.
func (w *world) prelude(rt *rapid.T, reqs ...request) {
	for _, req := range reqs {
		res, err := send(w.e.url, req.method, req.path, req.body, []string{"Content-Type", "application/json"})
		if err != nil || res.status >= 500 {
			rt.Fatalf("%s %s: got %d %s (%v), never a 5xx", req.method, short(req.path), res.status, res.body, err)
		}
		if tpl, ok := strings.CutSuffix(strings.TrimPrefix(req.path, "/v1/templates/"), "/void"); ok && res.status == http.StatusAccepted {
			w.workVoid(rt, tpl)
		}
	}
	w.state = w.observe(rt)
}

// checkWallet fails if req, answered 2xx, moved a coupon on a wallet
// route for a lapse order.
func (w *world) checkWallet(rt *rapid.T, what string, req request) {
	if !strings.HasPrefix(req.path, "/v1/coupons/") || strings.HasSuffix(req.path, "/void") {
		return
	}
	var b struct {
		OrderID string `json:"order_id"`
	}
	if json.Unmarshal([]byte(req.body), &b) == nil && slices.Contains(w.orders, b.OrderID) {
		rt.Fatalf("%s: a wallet route moved a coupon for lapse order %s", what, b.OrderID)
	}
}

// checkLatePayment fails if req, a payment refused as order-closed, has
// no order.late_payment event in the feed (observe has read it).
func (w *world) checkLatePayment(rt *rapid.T, what string, req request, slug string) {
	id, ok := strings.CutSuffix(strings.TrimPrefix(req.path, "/v1/orders/"), "/pay")
	if slug != "order-closed" || !ok {
		return
	}
	id, _ = url.PathUnescape(id)
	var b struct {
		PaymentID string `json:"payment_id"`
	}
	if err := json.Unmarshal([]byte(req.body), &b); err != nil || !w.late[id+"\x00"+b.PaymentID] {
		rt.Fatalf("%s: refused as order-closed with no order.late_payment event of its payment (%v)", what, err)
	}
}

// workVoid works the template void just started on tpl to its end, as
// the engine would, marking first the coupons it will mark: those of tpl
// the world made that are locked.
func (w *world) workVoid(rt *rapid.T, tpl string) {
	for _, id := range w.coupons {
		var c couponJSON
		if err := json.Unmarshal(w.get(rt, "/v1/coupons/"+url.PathEscape(id)), &c); err != nil {
			rt.Fatalf("coupon %s: %v", id, err)
		}
		if c.TemplateID == tpl && c.Status == "locked" {
			w.pendingVoid[id] = true
		}
	}
	w.e.work()
}

// checkPendingVoids fails if a coupon a template void marked reads
// unused, and forgets those that read voided or expired.
func (w *world) checkPendingVoids(rt *rapid.T) {
	for id := range w.pendingVoid {
		var c couponJSON
		if err := json.Unmarshal(w.get(rt, "/v1/coupons/"+url.PathEscape(id)), &c); err != nil {
			rt.Fatalf("coupon %s: %v", id, err)
		}
		switch c.Status {
		case "unused":
			rt.Fatalf("coupon %s, marked by a template void while locked, reads unused: %+v", id, c)
		case "voided", "expired":
			delete(w.pendingVoid, id)
		}
	}
}

// checkHeld fails unless the coupons of the latest orders agree with
// them: a paid order's used by it, a closed order's not.
func (w *world) checkHeld(rt *rapid.T) {
	for _, id := range lastN(w.orders, 5) {
		var o orderJSON
		if err := json.Unmarshal(w.get(rt, "/v1/orders/"+url.PathEscape(id)), &o); err != nil {
			rt.Fatalf("order %s: %v", id, err)
		}
		if o.Status == "unpaid" {
			continue
		}
		for _, cid := range o.CouponIDs {
			var c couponJSON
			if err := json.Unmarshal(w.get(rt, "/v1/coupons/"+url.PathEscape(cid)), &c); err != nil {
				rt.Fatalf("coupon %s: %v", cid, err)
			}
			if used := c.Status == "used" && c.OrderID != nil && *c.OrderID == id; used != (o.Status == "paid") {
				rt.Fatalf("order %s is %s, yet its coupon %s is %s for order %v", id, o.Status, cid, c.Status, c.OrderID)
			}
		}
	}
}

// learn keeps the IDs of what a successful request made.
func (w *world) learn(method, path string, res response) {
	var v struct {
		ID string `json:"id"`
	}
	if method != http.MethodPost || json.Unmarshal(res.body, &v) != nil || v.ID == "" {
		return
	}
	switch {
	case path == "/v1/templates":
		w.templates = append(w.templates, v.ID)
	case path == "/v1/orders":
		w.orders = append(w.orders, v.ID)
	case strings.HasPrefix(path, "/v1/users/") && strings.HasSuffix(path, "/coupons"):
		w.coupons = append(w.coupons, v.ID)
	}
}

// observe reads the feed to its end, the SKUs and the latest templates,
// orders and coupons, checking the money of the orders; it returns what
// it read, the feed's last cursor first.
func (w *world) observe(rt *rapid.T) string {
	var b strings.Builder
	for {
		res := w.get(rt, "/v1/events?limit=1000&after="+w.cursor)
		var page struct {
			Events []json.RawMessage `json:"events"`
			Next   string            `json:"next"`
		}
		if err := json.Unmarshal(res, &page); err != nil {
			rt.Fatalf("events: %v in %s", err, res)
		}
		if len(page.Events) == 0 {
			break
		}
		w.cursor = page.Next
		for _, raw := range page.Events {
			var e struct {
				Type, Subject string
				Data          struct {
					PaymentID string `json:"payment_id"`
				}
			}
			if json.Unmarshal(raw, &e) == nil && e.Type == store.EventOrderLatePayment {
				w.late[e.Subject+"\x00"+e.Data.PaymentID] = true
			}
		}
	}
	fmt.Fprintf(&b, "feed at %s\n", w.cursor)
	w.checkPendingVoids(rt)
	w.checkHeld(rt)
	paths := []string{"/v1/skus/a", "/v1/skus/b"}
	for _, id := range lastN(w.templates, 2) {
		paths = append(paths, "/v1/templates/"+id)
	}
	for _, id := range lastN(w.orders, 3) {
		paths = append(paths, "/v1/orders/"+id)
	}
	for _, id := range lastN(w.coupons, 3) {
		paths = append(paths, "/v1/coupons/"+id)
	}
	for _, p := range paths {
		res := w.get(rt, p)
		checkMoney(rt, "GET "+p, res)
		fmt.Fprintf(&b, "%s: %s\n", p, res)
	}
	return b.String()
}

// get reads path, which must answer 200.
func (w *world) get(rt *rapid.T, path string) []byte {
	res, err := send(w.e.url, http.MethodGet, path, "", nil)
	if err != nil || res.status != http.StatusOK {
		rt.Fatalf("GET %s: got %d %s (%v), want 200", path, res.status, res.body, err)
	}
	return res.body
}

func lastN(ids []string, n int) []string { return ids[max(0, len(ids)-n):] }

// checkMoney checks the money of an answer that is an order.
func checkMoney(rt *rapid.T, what string, body []byte) {
	var v map[string]any
	if json.Unmarshal(body, &v) != nil {
		return
	}
	if _, ok := v["amount_due"]; !ok {
		return
	}
	if err := orderMoney(v); err != nil {
		rt.Fatalf("%s: %v in %s", what, err, body)
	}
}

// values are raw JSON values of a field: good ones, and bad ones drawn a
// sixth of the time.
type values struct{ good, bad []string }

// Raw JSON values the draws mix.
var (
	moneyValues = values{
		good: []string{"0", "1", "300", "1500", "2000", "10000", strconv.FormatInt(input.MaxMoney, 10)},
		bad:  []string{strconv.FormatInt(input.MaxMoney+1, 10), "-1", "9223372036854775807", "9223372036854775808", "1.5", "1e3", `"100"`, "null"},
	}
	countValues = values{
		good: []string{"0", "1", "2", "3", "10"},
		bad:  []string{"1000000", "-1", "9223372036854775807", "1.5", `"1"`, "null"},
	}
	durationValues = values{
		good: []string{`"15m"`, `"1h"`, `"30m"`, `"1500ms"`, `"72h"`},
		bad:  []string{`"999us"`, `"1ns"`, `"-1h"`, `"0s"`, `"87600h"`, `"30m1ms"`, `"abc"`, `""`, "null", "5"},
	}
	timeValues = values{
		good: []string{`"` + ms(t0.Add(time.Hour)) + `"`, `"` + ms(t0.Add(48*time.Hour)) + `"`},
		bad:  []string{`"` + ms(t0.Add(-time.Hour)) + `"`, `"2026-13-01T00:00:00Z"`, `"yesterday"`, "null", "0"},
	}
	nameValues = values{
		good: []string{`"n"`, `"¥20 off"`, str(strings.Repeat("é", input.MaxName))},
		bad:  []string{`""`, `"   "`, `"a\u0000b"`, str(strings.Repeat("é", input.MaxName+1))},
	}
	reasonValues = values{
		good: []string{`"fraud"`, `""`, str(strings.Repeat("é", input.MaxReason))},
		bad:  []string{`"r\u0000"`, str(strings.Repeat("a", input.MaxReason+1)), "1"},
	}
	garbageBodies = []string{"", "{", "}", "null", "[]", "[{}]", `{"x": 1}`, `"s"`, "{}{}", "\x00", "\xff\xfe", `{"a":`}
	// badIDs break the ID rule one way each.
	badIDs = []string{"", " ", "a ", " a", "\t", "\x00", "a\x00", "\xff", "a\xffb", long,
		strings.Repeat("k", input.MaxID+1), "\u00a0a", "a\u2028"}
	userIDs = []string{"u1", "u2", "é"}
	// paymentIDs are good payment IDs: short, Stripe-style (27 bytes) and
	// as long as the rules allow.
	paymentIDs = []string{"p1", "p2", "pi_3MtwBwLkdIwHu7ix28a3tqPa", strings.Repeat("p", input.MaxID)}
	// keys are Idempotency-Keys: none, a fresh one, one reused, bad ones.
	keys = []string{"", "", "", "fresh", "fresh", "k1", longKey, strings.Repeat("k", input.MaxID+1), "k\u00e9"}
)

// oneOf draws one of xs.
func oneOf(rt *rapid.T, label string, xs ...string) string {
	return xs[rapid.IntRange(0, len(xs)-1).Draw(rt, label)]
}

// id draws an ID: one the world made (or a plain good one), a made-up one,
// or a bad one.
func (w *world) id(rt *rapid.T, label string, made []string, good ...string) string {
	switch rapid.IntRange(0, 11).Draw(rt, label+" kind") {
	case 11:
		return oneOf(rt, label, badIDs...)
	case 10:
		return oneOf(rt, label, "nope", "tpl_01m6b1yq3vgmfkn4zqnyc2fatw", "x"+strings.Repeat("y", 127))
	}
	if ids := append(slices.Clone(made), good...); len(ids) > 0 {
		return oneOf(rt, label, ids...)
	}
	return "nope"
}

// str quotes s as a JSON string, invalid UTF-8 bytes left raw.
func str(s string) string {
	b, _ := json.Marshal(s)
	if strings.ContainsRune(string(b), '\ufffd') && !strings.ContainsRune(s, '\ufffd') {
		return `"` + s + `"`
	}
	return string(b)
}

// member is one member of a drawn JSON object.
type member struct {
	name  string
	value func() string
}

// object draws a JSON object: each field present or not, and now and then
// an unknown one or no object at all.
func object(rt *rapid.T, fields ...member) string {
	if rapid.IntRange(0, 19).Draw(rt, "garbage?") == 19 {
		return oneOf(rt, "garbage", garbageBodies...)
	}
	var parts []string
	for _, f := range fields {
		if rapid.IntRange(0, 9).Draw(rt, f.name+"?") < 9 {
			parts = append(parts, str(f.name)+": "+f.value())
		}
	}
	if rapid.IntRange(0, 19).Draw(rt, "unknown field?") == 19 {
		parts = append(parts, `"extra": 1`)
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// list draws a JSON list of 0 to 3 values.
func list(rt *rapid.T, label string, value func() string) string {
	var xs []string
	for range rapid.IntRange(0, 3).Draw(rt, label+" length") {
		xs = append(xs, value())
	}
	return "[" + strings.Join(xs, ", ") + "]"
}

// draw draws a request on one of the API's routes.
func (w *world) draw(rt *rapid.T) request {
	tpl := func() string { return w.id(rt, "template", w.templates) }
	cpn := func() string { return w.id(rt, "coupon", w.coupons) }
	ord := func() string { return w.id(rt, "order", w.orders) }
	user := func() string { return w.id(rt, "user", nil, userIDs...) }
	sku := func() string { return w.id(rt, "sku", nil, "a", "b", "c") }
	jsonID := func(id func() string) func() string { return func() string { return str(id()) } }
	pick := func(v values) func() string {
		return func() string {
			if rapid.IntRange(0, 5).Draw(rt, "bad value?") == 5 {
				return oneOf(rt, "bad value", v.bad...)
			}
			return oneOf(rt, "value", v.good...)
		}
	}
	esc := url.PathEscape

	r := request{method: http.MethodPost}
	switch route := rapid.IntRange(0, 18).Draw(rt, "route"); route {
	case 0:
		r.path = "/v1/templates"
		r.body = object(rt,
			member{"name", pick(nameValues)},
			member{"value", pick(moneyValues)}, member{"min_spend", pick(moneyValues)},
			member{"validity", func() string {
				return object(rt, member{"starts_at", pick(timeValues)}, member{"ends_at", pick(timeValues)}, member{"duration", pick(durationValues)})
			}},
			member{"per_user_limit", pick(countValues)}, member{"total", pick(countValues)},
			member{"reminders", func() string { return list(rt, "reminders", pick(durationValues)) }})
	case 1:
		r.method, r.path = http.MethodGet, "/v1/templates/"+esc(tpl())
	case 2:
		r.path = "/v1/templates/" + esc(tpl()) + "/issue"
		if rapid.Bool().Draw(rt, "ndjson?") {
			var lines []string
			for range rapid.IntRange(0, 3).Draw(rt, "lines") {
				lines = append(lines, `{"user_id": `+str(user())+`}`)
			}
			r.body = strings.Join(lines, "\n")
			r.header = []string{"Content-Type", ndjson}
		} else {
			r.body = object(rt, member{"user_ids", func() string { return list(rt, "user_ids", jsonID(user)) }})
		}
	case 3, 4:
		r.path = "/v1/users/" + esc(user()) + "/coupons"
		r.body = object(rt, member{"template_id", jsonID(tpl)})
	case 5:
		r.method, r.path = http.MethodGet, "/v1/users/"+esc(user())+"/coupons"
		if rapid.Bool().Draw(rt, "status?") {
			r.path += "?status=" + oneOf(rt, "status", "unused", "locked", "used", "expired", "voided", "Expired", "")
		}
	case 6:
		r.method, r.path = http.MethodGet, "/v1/coupons/"+esc(cpn())
	case 7, 8:
		act := oneOf(rt, "action", "lock", "unlock", "redeem", "refund", "void")
		r.path = "/v1/coupons/" + esc(cpn()) + "/" + act
		orderID := member{"order_id", jsonID(func() string { return w.id(rt, "order", w.orders, "o1") })}
		switch act {
		case "lock":
			r.body = object(rt, orderID, member{"ttl", pick(durationValues)})
		case "void":
			r.body = object(rt, member{"reason", pick(reasonValues)})
		default:
			r.body = object(rt, orderID)
		}
	case 9:
		r.method, r.path = http.MethodPut, "/v1/skus/"+esc(sku())
		r.body = object(rt, member{"stock", pick(countValues)})
	case 10:
		r.method, r.path = http.MethodGet, "/v1/skus/"+esc(sku())
	case 11, 12:
		r.path = "/v1/orders"
		item := func() string {
			return object(rt, member{"sku", jsonID(sku)}, member{"qty", pick(countValues)}, member{"unit_price", pick(moneyValues)})
		}
		deadline := member{"timeout", pick(durationValues)}
		if rapid.IntRange(0, 4).Draw(rt, "deadline?") == 4 {
			deadline = member{"deadline", pick(timeValues)}
		}
		r.body = object(rt, member{"user_id", jsonID(user)},
			member{"items", func() string { return list(rt, "items", item) }},
			member{"coupon_ids", func() string { return list(rt, "coupon_ids", jsonID(cpn)) }},
			deadline)
	case 13:
		r.method, r.path = http.MethodGet, "/v1/orders/"+esc(ord())
	case 14:
		act := oneOf(rt, "order action", "pay", "cancel")
		r.path = "/v1/orders/" + esc(ord()) + "/" + act
		if act == "pay" {
			r.body = object(rt, member{"payment_id", jsonID(func() string { return w.id(rt, "payment", nil, paymentIDs...) })}, member{"amount", pick(moneyValues)})
		}
	case 15:
		r.method, r.path = http.MethodGet, "/v1/events"
		q := url.Values{}
		if rapid.Bool().Draw(rt, "after?") {
			q.Set("after", oneOf(rt, "after", "0", "1", "-1", "x", "9223372036854775808", w.cursor))
		}
		if rapid.Bool().Draw(rt, "limit?") {
			q.Set("limit", oneOf(rt, "limit", "1", "1000", "0", "1001", "x"))
		}
		r.path += "?" + q.Encode()
	case 16:
		r.path = "/v1/templates/" + esc(tpl()) + "/void"
		r.body = object(rt, member{"reason", pick(reasonValues)})
	case 17:
		// An order its coupon's holder may place: the coupon locked by a
		// lapse order, for the wallet routes and the voids to meet.
		c := cpn()
		owner := "u1"
		if res, err := send(w.e.url, http.MethodGet, "/v1/coupons/"+esc(c), "", nil); err == nil && res.status == http.StatusOK {
			var v couponJSON
			if json.Unmarshal(res.body, &v) == nil {
				owner = v.UserID
			}
		}
		r.path = "/v1/orders"
		r.body = `{"user_id": ` + str(owner) + `, "items": [{"sku": "a", "qty": 1, "unit_price": 100000}], "coupon_ids": [` + str(c) + `]}`
	case 18:
		// An escape from a template void: a coupon locked for an outside
		// order when its template is voided, then redeemed, is refunded.
		c := cpn()
		var v couponJSON
		if res, err := send(w.e.url, http.MethodGet, "/v1/coupons/"+esc(c), "", nil); err != nil || res.status != http.StatusOK || json.Unmarshal(res.body, &v) != nil {
			return w.draw(rt)
		}
		w.prelude(rt,
			request{method: http.MethodPost, path: "/v1/coupons/" + esc(c) + "/lock", body: `{"order_id": "o1", "ttl": "15m"}`},
			request{method: http.MethodPost, path: "/v1/templates/" + esc(v.TemplateID) + "/void", body: `{"reason": "leaked"}`},
			request{method: http.MethodPost, path: "/v1/coupons/" + esc(c) + "/redeem", body: `{"order_id": "o1"}`})
		r.path, r.body = "/v1/coupons/"+esc(c)+"/refund", `{"order_id": "o1"}`
	}
	if r.body != "" && len(r.header) == 0 {
		r.header = []string{"Content-Type", oneOf(rt, "content type", "application/json", "application/json", "application/json", "application/json", "application/json", "text/plain")}
	}
	if r.method == http.MethodPost {
		k := oneOf(rt, "key", keys...)
		if k == "fresh" {
			k = fmt.Sprintf("key-%d", w.sent)
		}
		if k != "" {
			r.header = append(r.header, "Idempotency-Key", k)
		}
	}
	return r
}
