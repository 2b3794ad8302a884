package httpapi

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/lapsehq/lapse/order"
)

// TestInputRules: every value from outside that breaks the input rules
// (API.md) is refused, 422 invalid naming its field, or 400 malformed for
// a body that is not JSON, and changes nothing, the same on every store.
func TestInputRules(t *testing.T) { onEveryStore(t, inputRules) }

// inputRules is TestInputRules on e's store.
func inputRules(t *testing.T, e *env) {
	tpl := e.template(hourTemplate)
	c := e.claim("u1", tpl)
	e.ok(e.do(http.MethodPut, "/v1/users/u1", `{}`), http.StatusOK, &userJSON{})
	e.putSKU("a", 10)
	o, _ := e.createOrder(orderBody("u1", items(t, "a:1:3000"), nil, ""))
	watched := []string{"/v1/templates/" + tpl, "/v1/coupons/" + c.ID, "/v1/users/u1/coupons", "/v1/users/u1",
		"/v1/skus/a", "/v1/orders/" + o.ID}

	long := strings.Repeat("x", 3000)
	template := func(fields string) string {
		return `{"name": "n", "value": 1, "validity": {"duration": "1h"}, ` + fields + `}`
	}
	orderOf := func(user, sku, coupon, extra string) string {
		var coupons []string
		if coupon != "" {
			coupons = []string{coupon}
		}
		return orderBody(user, []order.Item{{SKU: sku, Qty: 1, UnitPrice: 100}}, coupons, extra)
	}
	pay := `{"payment_id": "p1", "amount": 3000}`
	coupon, ord := "/v1/coupons/"+c.ID, "/v1/orders/"+o.ID
	cases := []struct {
		method, path, body string
		header             []string
		status             int
		slug, field        string // field named first in the detail
	}{
		// Path IDs, GETs included.
		{"GET", "/v1/templates/" + long, "", nil, 422, "invalid", "id"},
		{"POST", "/v1/templates/" + tpl + "%20/issue", `{"user_ids": ["u9"]}`, nil, 422, "invalid", "id"},
		{"GET", "/v1/coupons/%FF", "", nil, 422, "invalid", "id"},
		{"GET", coupon + "%20", "", nil, 422, "invalid", "id"},
		{"POST", coupon + "%20/void", `{}`, nil, 422, "invalid", "id"},
		{"POST", "/v1/coupons/%20" + c.ID + "/lock", `{"order_id": "o9"}`, nil, 422, "invalid", "id"},
		{"GET", "/v1/users/" + long + "/coupons", "", nil, 422, "invalid", "user_id"},
		{"POST", "/v1/users/u1%00/coupons", `{"template_id": "` + tpl + `"}`, nil, 422, "invalid", "user_id"},
		{"PUT", "/v1/users/%FF", `{}`, nil, 422, "invalid", "user_id"},
		{"GET", "/v1/users/%20", "", nil, 422, "invalid", "user_id"},
		{"GET", "/v1/skus/" + long, "", nil, 422, "invalid", "sku"},
		{"PUT", "/v1/skus/a%09", `{"stock": 5}`, nil, 422, "invalid", "sku"},
		{"GET", "/v1/orders/%FF", "", nil, 422, "invalid", "id"},
		{"POST", ord + "%20/cancel", "", nil, 422, "invalid", "id"},
		{"POST", ord + "%20/pay", pay, nil, 422, "invalid", "id"},
		{"POST", "/v1/sinks/%FF/replay", "", nil, 422, "invalid", "name"},

		// Body IDs.
		{"POST", "/v1/users/u1/coupons", `{"template_id": " ` + tpl + `"}`, nil, 422, "invalid", "template_id"},
		{"POST", "/v1/users/u1/coupons", `{"template_id": "` + long + `"}`, nil, 422, "invalid", "template_id"},
		{"POST", coupon + "/lock", `{"order_id": " o1"}`, nil, 422, "invalid", "order_id"},
		{"POST", coupon + "/unlock", `{"order_id": "o1\u0000"}`, nil, 422, "invalid", "order_id"},
		{"POST", coupon + "/redeem", `{"order_id": "   "}`, nil, 422, "invalid", "order_id"},
		{"POST", coupon + "/refund", `{"order_id": "` + long + `"}`, nil, 422, "invalid", "order_id"},
		{"POST", "/v1/orders", orderOf("   ", "a", "", ""), nil, 422, "invalid", "user_id"},
		{"POST", "/v1/orders", orderOf(strings.Repeat("u", 300), "a", "", ""), nil, 422, "invalid", "user_id"},
		{"POST", "/v1/orders", orderOf("u1", "a ", "", ""), nil, 422, "invalid", "items[0].sku"},
		{"POST", "/v1/orders", orderOf("u1", long, "", ""), nil, 422, "invalid", "items[0].sku"},
		{"POST", "/v1/orders", orderOf("u1", "a", c.ID+" ", ""), nil, 422, "invalid", "coupon_ids[0]"},
		{"POST", "/v1/orders", orderOf("u1", "a", "\x00", ""), nil, 422, "invalid", "coupon_ids[0]"},
		{"POST", ord + "/pay", `{"payment_id": "p1\u0007", "amount": 3000}`, nil, 422, "invalid", "payment_id"},
		{"POST", ord + "/pay", `{"payment_id": " ", "amount": 3000}`, nil, 422, "invalid", "payment_id"},

		// Idempotency-Key, on every route that reads it.
		{"POST", "/v1/users/u1/coupons", `{"template_id": "` + tpl + `"}`, []string{"Idempotency-Key", long}, 422, "invalid", "Idempotency-Key"},
		{"POST", "/v1/templates/" + tpl + "/issue", `{"user_ids": ["u9"]}`, []string{"Idempotency-Key", "k\t1"}, 422, "invalid", "Idempotency-Key"},
		{"POST", ord + "/cancel", "", []string{"Idempotency-Key", "k\xff"}, 422, "invalid", "Idempotency-Key"},
		{"POST", "/v1/templates", hourTemplate, []string{"Idempotency-Key", long}, 422, "invalid", "Idempotency-Key"},

		// Names and reasons.
		{"POST", "/v1/templates", `{"name": "` + strings.Repeat("名", 201) + `", "value": 1, "validity": {"duration": "1h"}}`, nil, 422, "invalid", "name"},
		{"POST", coupon + "/void", `{"reason": "` + strings.Repeat("r", 501) + `"}`, nil, 422, "invalid", "reason"},
		{"POST", coupon + "/void", `{"reason": "r\u0000"}`, nil, 422, "invalid", "reason"},

		// Money and counts.
		{"POST", ord + "/pay", `{"payment_id": "p1", "amount": -1}`, nil, 422, "invalid", "amount"},
		{"POST", ord + "/pay", fmt.Sprintf(`{"payment_id": "p1", "amount": %d}`, order.MaxTotal+1), nil, 422, "invalid", "amount"},
		{"POST", ord + "/pay", `{"payment_id": "p1", "amount": 9223372036854775807}`, nil, 422, "invalid", "amount"},
		{"POST", "/v1/templates", template(`"per_user_limit": 1000000000001`), nil, 422, "invalid", "per_user_limit"},
		{"POST", "/v1/templates", template(`"total": 9223372036854775807`), nil, 422, "invalid", "total"},

		// Durations in whole milliseconds.
		{"POST", coupon + "/lock", `{"order_id": "o1", "ttl": "999us"}`, nil, 422, "invalid", "ttl"},
		{"POST", coupon + "/lock", `{"order_id": "o1", "ttl": "1ns"}`, nil, 422, "invalid", "ttl"},
		{"POST", coupon + "/lock", `{"order_id": "o1", "ttl": "1500us"}`, nil, 422, "invalid", "ttl"},
		{"POST", "/v1/orders", orderOf("u1", "a", "", `"timeout": "1500us"`), nil, 422, "invalid", "timeout"},
		{"POST", "/v1/templates", `{"name": "n", "value": 1, "validity": {"duration": "999us"}}`, nil, 422, "invalid", "validity.duration"},
		{"POST", "/v1/templates", template(`"reminders": ["1ns"]`), nil, 422, "invalid", "reminders[0]"},

		// A claim window that closes before anyone can claim.
		{"POST", "/v1/templates", `{"name": "n", "value": 1, "validity": {"ends_at": "` + ms(t0) + `"}}`, nil, 422, "invalid", "validity.ends_at"},

		// Bulk issuance, user by user.
		{"POST", "/v1/templates/" + tpl + "/issue", `{"user_ids": ["u9", " u10"]}`, nil, 422, "invalid", "user_ids[1]"},
		{"POST", "/v1/templates/" + tpl + "/issue", `{"user_ids": ["u9", "` + long + `"]}`, nil, 422, "invalid", "user_ids[1]"},
		{"POST", "/v1/templates/" + tpl + "/issue", "{\"user_id\": \"u9\"}\n{\"user_id\": \"u\\u0000\"}\n",
			[]string{"Content-Type", ndjson}, 422, "invalid", "user_id (line 2)"},

		// Bodies that are not JSON.
		{"POST", "/v1/users/u1/coupons", `{"template_id": "` + tpl + `"}`, []string{"Content-Type", "application/x-www-form-urlencoded"}, 400, "malformed", "Content-Type"},
		{"POST", ord + "/cancel", "", []string{"Content-Type", "text/plain"}, 400, "malformed", "Content-Type"},
		{"PUT", "/v1/skus/a", `{"stock": 5}`, []string{"Content-Type", "multipart/form-data; boundary=x"}, 400, "malformed", "Content-Type"},
		{"POST", "/v1/templates", hourTemplate, []string{"Content-Type", "json"}, 400, "malformed", "Content-Type"},
		{"POST", "/v1/templates/" + tpl + "/issue", `{"user_ids": ["u9"]}`, []string{"Content-Type", "text/csv"}, 400, "malformed", "Content-Type"},
	}
	for _, tc := range cases {
		before := e.snapshot(watched...)
		res := e.do(tc.method, tc.path, tc.body, tc.header...)
		name := fmt.Sprintf("%s %.80s %.80q %.40q", tc.method, tc.path, tc.body, tc.header)
		if res.status != tc.status {
			t.Fatalf("%s: got %d %s, want %d", name, res.status, res.body, tc.status)
		}
		if p := e.problem(res, tc.status, tc.slug); !strings.HasPrefix(p.Detail, tc.field) {
			t.Fatalf("%s: detail %q, want it to name %q", name, p.Detail, tc.field)
		}
		if after := e.snapshot(watched...); after != before {
			t.Fatalf("%s changed state:\n before %s\n after %s", name, before, after)
		}
	}
}

// TestContentTypeJSON: JSON bodies are taken with or without parameters
// (a charset only if it is UTF-8), or as any +json type. (No Content-Type
// at all: see TestOpenModeBrowser.)
func TestContentTypeJSON(t *testing.T) {
	e := setup(t)
	tpl := e.template(hourTemplate)
	e.putSKU("a", 10)
	for _, ct := range []string{"application/json", "Application/JSON; charset=utf-8", "application/merge-patch+json"} {
		var c couponJSON
		e.ok(e.post("/v1/users/u1/coupons", `{"template_id": "`+tpl+`"}`, "Content-Type", ct), http.StatusCreated, &c)
		o, _ := e.createOrder(orderBody("u1", items(t, "a:1:100"), nil, ""))
		var closed orderJSON
		e.ok(e.post("/v1/orders/"+o.ID+"/cancel", "", "Content-Type", ct), http.StatusOK, &closed) // an empty body is {}
	}
	var got issuedJSON
	e.ok(e.post("/v1/templates/"+tpl+"/issue", `{"user_ids": ["u2"]}`, "Content-Type", "application/json; charset=utf-8"), http.StatusOK, &got)
	if got.Issued != 1 {
		t.Fatalf("issued: got %+v, want 1", got)
	}
}

// TestTemplateTimesMilliseconds: a template's times given finer than the
// millisecond are kept cut to it, so that they read back as stored.
func TestTemplateTimesMilliseconds(t *testing.T) {
	e := setup(t)
	var v templateJSON
	e.ok(e.post("/v1/templates", `{"name": "n", "value": 1,
		"validity": {"starts_at": "2026-11-01T09:00:00.000999999Z", "ends_at": "2026-11-01T18:00:00.123456789+08:00"}}`),
		http.StatusCreated, &v)
	start, end := "2026-11-01T09:00:00.000Z", "2026-11-01T10:00:00.123Z"
	if v.Validity.StartsAt != start || v.Validity.EndsAt == nil || *v.Validity.EndsAt != end {
		t.Fatalf("created validity %+v, want starts_at %s, ends_at %s", v.Validity, start, end)
	}
	var got templateJSON
	e.ok(e.get("/v1/templates/"+v.ID), http.StatusOK, &got)
	if got.Validity.StartsAt != start || got.Validity.EndsAt == nil || *got.Validity.EndsAt != end {
		t.Fatalf("read back validity %+v, want starts_at %s, ends_at %s", got.Validity, start, end)
	}
	// Between the time given and the time kept, the window is as kept.
	e.clock.Set(parseTime(t, start).Add(500 * time.Microsecond))
	if c := e.claim("u1", v.ID); c.ExpiresAt != end {
		t.Fatalf("expires_at: got %s, want ends_at %s", c.ExpiresAt, end)
	}
	e.clock.Set(parseTime(t, end).Add(400 * time.Microsecond))
	e.problem(e.post("/v1/users/u2/coupons", `{"template_id": "`+v.ID+`"}`), http.StatusConflict, "not-claimable")
}
