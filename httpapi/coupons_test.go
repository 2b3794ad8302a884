package httpapi

import (
	"bytes"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestClaim(t *testing.T) {
	e := setup(t)
	tpl := e.template(`{"name": "n", "value": 500, "validity": {"duration": "72h", "ends_at": "2026-11-02T00:00:00Z"}}`)
	res := e.post("/v1/users/u1/coupons", `{"template_id": "`+tpl+`"}`)
	var c couponJSON
	e.ok(res, http.StatusCreated, &c)
	want := `{"id":"` + c.ID + `","template_id":"` + tpl + `","user_id":"u1","status":"unused",` +
		`"claimed_at":"` + ms(t0) + `","expires_at":"2026-11-02T00:00:00.000Z","order_id":null,` +
		`"locked_until":null,"updated_at":"` + ms(t0) + `"}`
	if got := string(res.body); got != want {
		t.Fatalf("claimed:\n got %s\nwant %s", got, want)
	}
	if _, got := e.coupon(c.ID); got != want {
		t.Fatalf("read back:\n got %s\nwant %s", got, want)
	}
}

func TestClaimRejected(t *testing.T) {
	e := setup(t)
	limited := e.template(`{"name": "n", "value": 1, "validity": {"duration": "1h"}, "per_user_limit": 1}`)
	scarce := e.template(`{"name": "n", "value": 1, "validity": {"duration": "1h"}, "total": 1}`)
	later := e.template(`{"name": "n", "value": 1, "validity": {"starts_at": "2026-11-02T00:00:00Z", "duration": "1h"}}`)
	e.claim("u1", limited)
	e.claim("u2", scarce)

	cases := []struct {
		user, body string
		status     int
		slug       string
	}{
		{"u1", `{"template_id": 7}`, 400, "malformed"},
		{"u1", `{"template_id": "` + limited + `", "user_id": "u9"}`, 400, "malformed"},
		{"u1", `{}`, 422, "invalid"},
		{"u1", `{"template_id": "tpl_nothing"}`, 404, "not-found"},
		{"u1", `{"template_id": "` + limited + `"}`, 409, "limit-reached"},
		{"u1", `{"template_id": "` + scarce + `"}`, 409, "sold-out"},
		{"u1", `{"template_id": "` + later + `"}`, 409, "not-claimable"},
	}
	for _, c := range cases {
		p := e.problem(e.post("/v1/users/"+c.user+"/coupons", c.body), c.status, c.slug)
		if c.slug == "invalid" && !strings.HasPrefix(p.Detail, "template_id") {
			t.Fatalf("detail: got %q, want it to name template_id", p.Detail)
		}
	}
	if got := len(e.userCoupons("/v1/users/u1/coupons")); got != 1 {
		t.Fatalf("u1 coupons after refusals: got %d, want 1", got)
	}
	if got := len(e.userCoupons("/v1/users/u2/coupons")); got != 1 {
		t.Fatalf("u2 coupons after refusals: got %d, want 1", got)
	}
}

func TestUserCoupons(t *testing.T) {
	e := setup(t)
	res := e.get("/v1/users/u1/coupons")
	if res.status != http.StatusOK || string(res.body) != `{"coupons":[],"next":""}` {
		t.Fatalf("empty list: got %d %s, want 200 {\"coupons\":[],\"next\":\"\"}", res.status, res.body)
	}
	tpl := e.template(hourTemplate)
	a, b := e.claim("u1", tpl), e.claim("u1", tpl)
	e.claim("u2", tpl)
	e.ok(e.post("/v1/coupons/"+b.ID+"/lock", `{"order_id": "o1"}`), http.StatusOK, &couponJSON{})

	if got := len(e.userCoupons("/v1/users/u1/coupons")); got != 2 {
		t.Fatalf("all: got %d coupons, want 2", got)
	}
	unused := e.userCoupons("/v1/users/u1/coupons?status=unused")
	if len(unused) != 1 || unused[0].ID != a.ID {
		t.Fatalf("unused: got %+v, want only %s", unused, a.ID)
	}
	res = e.get("/v1/users/u1/coupons?status=used")
	if string(res.body) != `{"coupons":[],"next":""}` {
		t.Fatalf("none used: got %s, want {\"coupons\":[],\"next\":\"\"}", res.body)
	}
	for _, q := range []string{"?status=spent", "?status=", "?status=Unused", "?limit=0", "?limit=1001", "?limit=x", "?after=%20cpn", "?after=" + strings.Repeat("c", 129)} {
		p := e.problem(e.get("/v1/users/u1/coupons"+q), http.StatusUnprocessableEntity, "invalid")
		field, _, _ := strings.Cut(q[1:], "=")
		if !strings.HasPrefix(p.Detail, field) {
			t.Fatalf("%s: detail %q, want it to name %s", q, p.Detail, field)
		}
	}
}

func TestGetCouponNotFound(t *testing.T) {
	e := setup(t)
	e.problem(e.get("/v1/coupons/cpn_nothing"), http.StatusNotFound, "not-found")
}

func TestCouponLifecycle(t *testing.T) {
	e := setup(t)
	c := e.claim("u1", e.template(hourTemplate))
	path := "/v1/coupons/" + c.ID

	steps := []struct {
		action, body string
		status       string
		orderID      string
		lockedUntil  string
	}{
		{"lock", `{"order_id": "o1"}`, "locked", "o1", ms(t0.Add(15 * time.Minute))},
		{"unlock", `{"order_id": "o1"}`, "unused", "", ""},
		{"lock", `{"order_id": "o2", "ttl": "2m"}`, "locked", "o2", ms(t0.Add(2 * time.Minute))},
		{"redeem", `{"order_id": "o2"}`, "used", "o2", ""},
		{"refund", `{"order_id": "o2"}`, "unused", "", ""},
		{"redeem", `{"order_id": "o3"}`, "used", "o3", ""},
		{"refund", `{"order_id": "o3"}`, "unused", "", ""},
		{"void", `{"reason": "fraud"}`, "voided", "", ""},
	}
	for _, s := range steps {
		res := e.post(path+"/"+s.action, s.body)
		var got couponJSON
		e.ok(res, http.StatusOK, &got)
		if got.Status != s.status || deref(got.OrderID) != s.orderID || deref(got.LockedUntil) != s.lockedUntil {
			t.Fatalf("%s %s: got status %s, order %q, locked_until %q; want %s, %q, %q",
				s.action, s.body, got.Status, deref(got.OrderID), deref(got.LockedUntil), s.status, s.orderID, s.lockedUntil)
		}
		if _, read := e.coupon(c.ID); read != string(res.body) {
			t.Fatalf("%s: read back %s, want the response %s", s.action, read, res.body)
		}
	}
}

func TestVoidWithoutBody(t *testing.T) {
	e := setup(t)
	c := e.claim("u1", e.template(hourTemplate))
	var got couponJSON
	e.ok(e.post("/v1/coupons/"+c.ID+"/void", ""), http.StatusOK, &got)
	if got.Status != "voided" {
		t.Fatalf("status: got %s, want voided", got.Status)
	}
}

func TestTransitionRejected(t *testing.T) {
	e := setup(t)
	tpl := e.template(hourTemplate)
	unused := e.claim("u1", tpl).ID
	locked := e.claim("u1", tpl).ID
	e.ok(e.post("/v1/coupons/"+locked+"/lock", `{"order_id": "o1"}`), http.StatusOK, &couponJSON{})

	cases := []struct {
		id, action, body string
		status           int
		slug, field      string
	}{
		{unused, "lock", `{"order_id": "o1", "ttl": 900}`, 400, "malformed", ""},
		{unused, "lock", `{"order_id": "o1", "ttl": "soon"}`, 400, "malformed", ""},
		{unused, "lock", `{"order_id": "o1", "reason": "x"}`, 400, "malformed", ""},
		{unused, "lock", `{"order_id": "o1"`, 400, "malformed", ""},
		{unused, "redeem", `{"order_id": "o1", "ttl": "1m"}`, 400, "malformed", ""},
		{unused, "void", `{"reason": 1}`, 400, "malformed", ""},
		{unused, "lock", `{"ttl": "1m"}`, 422, "invalid", "order_id"},
		{unused, "lock", `{"order_id": "o1", "ttl": "0s"}`, 422, "invalid", "ttl"},
		{unused, "lock", `{"order_id": "o1", "ttl": "-1m"}`, 422, "invalid", "ttl"},
		{unused, "unlock", ``, 422, "invalid", "order_id"},
		{unused, "redeem", `{"order_id": ""}`, 422, "invalid", "order_id"},
		{unused, "refund", `{}`, 422, "invalid", "order_id"},
		{"cpn_nothing", "lock", `{"order_id": "o1"}`, 404, "not-found", ""},
		{unused, "unlock", `{"order_id": "o1"}`, 409, "invalid-state", ""},
		{unused, "refund", `{"order_id": "o1"}`, 409, "invalid-state", ""},
		{locked, "lock", `{"order_id": "o2"}`, 409, "invalid-state", ""},
		{locked, "redeem", `{"order_id": "o2"}`, 409, "invalid-state", ""},
		{locked, "unlock", `{"order_id": "o2"}`, 409, "invalid-state", ""},
		{locked, "void", `{}`, 409, "invalid-state", ""},
	}
	for _, c := range cases {
		before := e.get("/v1/coupons/" + c.id)
		p := e.problem(e.post("/v1/coupons/"+c.id+"/"+c.action, c.body), c.status, c.slug)
		if !strings.HasPrefix(p.Detail, c.field) {
			t.Fatalf("%s %s: detail %q, want it to name %q", c.action, c.body, p.Detail, c.field)
		}
		if after := e.get("/v1/coupons/" + c.id); !bytes.Equal(withoutRequestID(after.body), withoutRequestID(before.body)) {
			t.Fatalf("%s %s changed the coupon:\n before %s\n after %s", c.action, c.body, before.body, after.body)
		}
	}
}

// TestLockTTLCapped: a lock may ask at most MaxLockTTL, so a lock taken
// just before expires_at keeps the coupon redeemable that long past it
// and no longer; a lock that names no ttl holds 15m, or the cap if it is
// shorter.
func TestLockTTLCapped(t *testing.T) {
	e := setup(t, func(c *Config) { c.MaxLockTTL = 10 * time.Minute })
	tpl := e.template(`{"name": "n", "value": 1, "validity": {"duration": "3s"}}`)
	c := e.claim("u1", tpl)
	path := "/v1/coupons/" + c.ID + "/lock"
	for _, ttl := range []string{"87600h", "10m1ms"} {
		before := e.get("/v1/coupons/" + c.ID)
		p := e.problem(e.post(path, `{"order_id": "o1", "ttl": "`+ttl+`"}`), http.StatusUnprocessableEntity, "invalid")
		if p.Detail != "ttl: at most 10m0s" {
			t.Fatalf("ttl %s: detail %q, want ttl: at most 10m0s", ttl, p.Detail)
		}
		if after := e.get("/v1/coupons/" + c.ID); string(after.body) != string(before.body) {
			t.Fatalf("ttl %s: the refused lock changed the coupon:\n before %s\n after %s", ttl, before.body, after.body)
		}
	}
	var got couponJSON
	e.ok(e.post(path, `{"order_id": "o1", "ttl": "10m"}`), http.StatusOK, &got)
	if deref(got.LockedUntil) != ms(t0.Add(10*time.Minute)) {
		t.Fatalf("ttl at the cap: locked_until %q, want %s", deref(got.LockedUntil), ms(t0.Add(10*time.Minute)))
	}

	short := setup(t, func(c *Config) { c.MaxLockTTL = 5 * time.Minute })
	c = short.claim("u1", short.template(hourTemplate))
	short.ok(short.post("/v1/coupons/"+c.ID+"/lock", `{"order_id": "o1"}`), http.StatusOK, &got)
	if deref(got.LockedUntil) != ms(t0.Add(5*time.Minute)) {
		t.Fatalf("no ttl under a 5m cap: locked_until %q, want %s", deref(got.LockedUntil), ms(t0.Add(5*time.Minute)))
	}

	dflt := setup(t)
	c = dflt.claim("u1", dflt.template(hourTemplate))
	dflt.problem(dflt.post("/v1/coupons/"+c.ID+"/lock", `{"order_id": "o1", "ttl": "31m"}`), http.StatusUnprocessableEntity, "invalid")
	dflt.ok(dflt.post("/v1/coupons/"+c.ID+"/lock", `{"order_id": "o1", "ttl": "30m"}`), http.StatusOK, &got)
}

func TestLazyExpiry(t *testing.T) {
	e := setup(t, func(c *Config) { c.MaxLockTTL = 2 * time.Hour })
	tpl := e.template(hourTemplate)
	c := e.claim("u1", tpl)
	held := e.claim("u1", tpl)
	e.ok(e.post("/v1/coupons/"+held.ID+"/lock", `{"order_id": "o1", "ttl": "2h"}`), http.StatusOK, &couponJSON{})

	e.clock.Add(time.Hour - time.Millisecond)
	if got, _ := e.coupon(c.ID); got.Status != "unused" {
		t.Fatalf("1ms before expires_at: got %s, want unused", got.Status)
	}
	e.clock.Add(time.Millisecond) // at expires_at; no engine has run
	got, before := e.coupon(c.ID)
	if got.Status != "expired" || got.ExpiresAt != ms(t0.Add(time.Hour)) {
		t.Fatalf("at expires_at: got %s expiring %s, want expired at %s", got.Status, got.ExpiresAt, ms(t0.Add(time.Hour)))
	}
	expired := e.userCoupons("/v1/users/u1/coupons?status=expired")
	if len(expired) != 1 || expired[0].ID != c.ID || expired[0].Status != "expired" {
		t.Fatalf("expired list: got %+v, want only %s", expired, c.ID)
	}
	if got := e.userCoupons("/v1/users/u1/coupons?status=unused"); len(got) != 0 {
		t.Fatalf("unused list: got %+v, want none", got)
	}
	e.problem(e.post("/v1/coupons/"+c.ID+"/lock", `{"order_id": "o2"}`), http.StatusConflict, "coupon-expired")
	e.problem(e.post("/v1/coupons/"+c.ID+"/redeem", `{"order_id": "o2"}`), http.StatusConflict, "coupon-expired")
	if _, after := e.coupon(c.ID); after != before {
		t.Fatalf("refused lock changed the coupon:\n before %s\n after %s", before, after)
	}

	// A lock taken in time is honoured after expires_at.
	var used couponJSON
	e.ok(e.post("/v1/coupons/"+held.ID+"/redeem", `{"order_id": "o1"}`), http.StatusOK, &used)
	if used.Status != "used" {
		t.Fatalf("redeem of a lock taken in time: got %s, want used", used.Status)
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
