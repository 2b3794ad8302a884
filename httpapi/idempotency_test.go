package httpapi

import (
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

func TestIdempotentClaim(t *testing.T) {
	e := setup(t)
	tpl := e.template(hourTemplate)
	body := `{"template_id": "` + tpl + `"}`
	first := e.post("/v1/users/u1/coupons", body, "Idempotency-Key", "k1")
	var c couponJSON
	e.ok(first, http.StatusCreated, &c)

	e.clock.Add(time.Minute) // a re-rendered answer would show the new time
	again := e.post("/v1/users/u1/coupons", body, "Idempotency-Key", "k1")
	if again.status != first.status || string(again.body) != string(first.body) {
		t.Fatalf("replay: got %d %s, want %d %s", again.status, again.body, first.status, first.body)
	}
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
	e.problem(e.post("/v1/users/u2/coupons", `{"template_id": "`+a+`"}`, "Idempotency-Key", "k1"), http.StatusConflict, "idempotency-conflict")
	if got := e.userCoupons("/v1/users/u1/coupons"); len(got) != 1 || got[0].TemplateID != a {
		t.Fatalf("u1 coupons: got %+v, want one of %s", got, a)
	}
	if got := len(e.userCoupons("/v1/users/u2/coupons")); got != 0 {
		t.Fatalf("u2 coupons: got %d, want 0", got)
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
	if again.status != first.status || string(again.body) != string(first.body) {
		t.Fatalf("replay: got %d %s, want %d %s", again.status, again.body, first.status, first.body)
	}
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

func TestIdempotencyRefusalNotStored(t *testing.T) {
	e := setup(t)
	tpl := e.template(hourTemplate)
	c := e.claim("u1", tpl)
	e.clock.Add(time.Hour)
	e.problem(e.post("/v1/coupons/"+c.ID+"/lock", `{"order_id": "o1"}`, "Idempotency-Key", "k"), http.StatusConflict, "coupon-expired")
	// The refusal saved no response: the key is still free for its request.
	e.problem(e.post("/v1/coupons/"+c.ID+"/lock", `{"order_id": "o1"}`, "Idempotency-Key", "k"), http.StatusConflict, "coupon-expired")
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
