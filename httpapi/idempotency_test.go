package httpapi

import (
	"bytes"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

func TestIdempotentClaim(t *testing.T) {
	e := setup(t)
	tpl := e.template(hourTemplate)
	body := `{"template_id": "` + tpl + `"}`
	var c couponJSON
	_, again := e.replay(http.StatusCreated, &c, func() response {
		return e.post("/v1/users/u1/coupons", body, "Idempotency-Key", "k1")
	})
	if got := again.header.Get("Content-Type"); got != "application/json" {
		t.Fatalf("replay content type: got %q, want application/json", got)
	}
	if got := e.userCoupons("/v1/users/u1/coupons"); len(got) != 1 || got[0].ID != c.ID {
		t.Fatalf("coupons after replay: got %+v, want only %s", got, c.ID)
	}
	if got := len(e.events("/v1/events").Events); got != 1 {
		t.Fatalf("events after replay: got %d, want 1", got)
	}

	e.claim("u1", tpl) // no key: a second, distinct claim
	if got := len(e.userCoupons("/v1/users/u1/coupons")); got != 2 {
		t.Fatalf("coupons after a keyless claim: got %d, want 2", got)
	}
}

func TestIdempotencyConflict(t *testing.T) {
	e := setup(t)
	a, b := e.template(hourTemplate), e.template(hourTemplate)
	e.ok(e.post("/v1/users/u1/coupons", `{"template_id": "`+a+`"}`, "Idempotency-Key", "k1"), http.StatusCreated, &couponJSON{})

	e.problem(e.post("/v1/users/u1/coupons", `{"template_id": "`+b+`"}`, "Idempotency-Key", "k1"), http.StatusConflict, "idempotency-conflict")
	if got := e.userCoupons("/v1/users/u1/coupons"); len(got) != 1 || got[0].TemplateID != a {
		t.Fatalf("u1 coupons: got %+v, want one of %s", got, a)
	}
}

func TestIdempotencyScoped(t *testing.T) {
	e := setup(t)
	tpl := e.template(hourTemplate)
	body := `{"template_id": "` + tpl + `"}`
	var c1, c2 couponJSON
	e.ok(e.post("/v1/users/u1/coupons", body, "Idempotency-Key", "k1"), http.StatusCreated, &c1)
	// Another path: the same key is another key.
	e.ok(e.post("/v1/users/u2/coupons", body, "Idempotency-Key", "k1"), http.StatusCreated, &c2)
	for user, c := range map[string]couponJSON{"u1": c1, "u2": c2} {
		e.ok(e.post("/v1/users/"+user+"/coupons", body, "Idempotency-Key", "k1"), http.StatusCreated, &couponJSON{})
		if got := e.userCoupons("/v1/users/" + user + "/coupons"); len(got) != 1 || got[0].ID != c.ID {
			t.Fatalf("%s coupons: got %+v, want only %s", user, got, c.ID)
		}
	}
}

func TestIdempotencyTTL(t *testing.T) {
	e := setup(t, func(c *Config) { c.IdempotencyTTL = time.Hour })
	tpl := e.template(`{"name": "day", "value": 2000, "validity": {"duration": "24h"}}`)
	claim := func() couponJSON {
		var c couponJSON
		e.ok(e.post("/v1/users/u1/coupons", `{"template_id": "`+tpl+`"}`, "Idempotency-Key", "k1"), http.StatusCreated, &c)
		return c
	}
	first := claim()
	e.clock.Add(time.Hour - time.Millisecond)
	if again := claim(); again.ID != first.ID {
		t.Fatalf("retry within the TTL: got coupon %s, want %s", again.ID, first.ID)
	}
	e.clock.Add(time.Millisecond) // the key has expired: the request runs anew
	if again := claim(); again.ID == first.ID {
		t.Fatalf("retry past the TTL: got coupon %s again, want a new one", first.ID)
	}
}

func TestIdempotentConcurrentClaims(t *testing.T) {
	e := setup(t)
	tpl := e.template(hourTemplate)
	body := `{"template_id": "` + tpl + `"}`
	res := make([]response, 24)
	var wg sync.WaitGroup
	for i := range res {
		wg.Go(func() { res[i] = e.post("/v1/users/u1/coupons", body, "Idempotency-Key", "k1") })
	}
	wg.Wait()
	var c couponJSON
	e.ok(res[0], http.StatusCreated, &c)
	for i, r := range res {
		if r.status != res[0].status || string(r.body) != string(res[0].body) {
			t.Fatalf("request %d: got %d %s, want %d %s", i, r.status, r.body, res[0].status, res[0].body)
		}
	}
	if got := e.userCoupons("/v1/users/u1/coupons"); len(got) != 1 || got[0].ID != c.ID {
		t.Fatalf("coupons after %d identical claims: got %+v, want only %s", len(res), got, c.ID)
	}
}

func TestIdempotentTransition(t *testing.T) {
	e := setup(t)
	c := e.claim("u1", e.template(hourTemplate))
	lock := func() response {
		return e.post("/v1/coupons/"+c.ID+"/lock", `{"order_id": "o1"}`, "Idempotency-Key", "lock-1")
	}
	first := lock()
	e.ok(first, http.StatusOK, &couponJSON{})
	e.ok(e.post("/v1/coupons/"+c.ID+"/unlock", `{"order_id": "o1"}`), http.StatusOK, &couponJSON{})
	_, unlocked := e.coupon(c.ID)

	again := lock() // answered from the first lock, not locked again
	wantReplayed(t, first, again)
	if _, got := e.coupon(c.ID); got != unlocked {
		t.Fatalf("replay changed the coupon:\n got %s\nwant %s", got, unlocked)
	}
}

func TestIdempotentCreateTemplate(t *testing.T) {
	e := setup(t)
	first := e.post("/v1/templates", hourTemplate, "Idempotency-Key", "t1")
	again := e.post("/v1/templates", hourTemplate, "Idempotency-Key", "t1")
	if first.status != http.StatusCreated || string(again.body) != string(first.body) {
		t.Fatalf("replay: got %d %s then %s, want 201 twice the same", first.status, first.body, again.body)
	}
}

func TestIdempotencyRefusalKept(t *testing.T) {
	e := setup(t)
	tpl := e.template(`{"name": "later", "value": 2000, "validity": {"starts_at": "` + ms(t0.Add(time.Hour)) + `", "duration": "1h"}}`)
	claim := func() response {
		return e.post("/v1/users/u1/coupons", `{"template_id": "`+tpl+`"}`, "Idempotency-Key", "k")
	}
	first := claim()
	e.problem(first, http.StatusConflict, "not-claimable")
	e.clock.Add(time.Hour) // claimable now, but the key holds its refusal
	again := claim()
	e.problem(again, http.StatusConflict, "not-claimable")
	if !bytes.Equal(withoutRequestID(again.body), withoutRequestID(first.body)) {
		t.Fatalf("replayed refusal: got %s, want %s", again.body, first.body)
	}
	if got := len(e.userCoupons("/v1/users/u1/coupons")); got != 0 {
		t.Fatalf("coupons after the replayed refusal: got %d, want 0", got)
	}
}

func TestIdempotencyInvalidNotKept(t *testing.T) {
	e := setup(t)
	e.putSKU("a", 10)
	o, _ := e.createOrder(orderBody("u1", items(t, "a:3:1000"), nil, ""))
	e.problem(e.pay(o.ID, "p1", 1, "Idempotency-Key", "pay-1"), http.StatusUnprocessableEntity, "invalid")
	e.problem(e.post("/v1/orders/"+o.ID+"/pay", "{", "Idempotency-Key", "pay-1"), http.StatusBadRequest, "malformed")
	// Neither was kept: the key is free for the request put right.
	e.ok(e.pay(o.ID, "p1", 3000, "Idempotency-Key", "pay-1"), http.StatusOK, &orderJSON{})
}

func TestFingerprint(t *testing.T) {
	fingerprint := func(method, path string, body []byte) string {
		h := newFingerprint(httptest.NewRequest(method, path, nil))
		h.Write(body)
		return hex.EncodeToString(h.Sum(nil))
	}
	base := fingerprint("POST", "/v1/coupons/c1/lock", []byte(`{"order_id":"o1"}`))
	if len(base) != 64 {
		t.Fatalf("fingerprint: got %q, want 64 hex digits", base)
	}
	for _, other := range []string{
		fingerprint("POST", "/v1/coupons/c2/lock", []byte(`{"order_id":"o1"}`)),
		fingerprint("POST", "/v1/coupons/c1/lock", []byte(`{"order_id":"o2"}`)),
		fingerprint("PUT", "/v1/coupons/c1/lock", []byte(`{"order_id":"o1"}`)),
	} {
		if other == base {
			t.Fatalf("fingerprint: got %s for two different requests", base)
		}
	}
}
