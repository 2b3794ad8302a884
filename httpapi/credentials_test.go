package httpapi

import (
	"encoding/json"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/lapsehq/lapse/credential"
	"github.com/lapsehq/lapse/store"
)

// createToken stores a token of name with scopes in e's store, at e's
// clock, and returns its secret.
func (e *env) createToken(name string, scopes ...credential.Scope) string {
	e.t.Helper()
	_, secret, err := e.store.CreateToken(e.t.Context(), store.CreateTokenParams{Name: name, Scopes: scopes, Now: e.clock.Now()})
	if err != nil {
		e.t.Fatalf("CreateToken(%s): %v", name, err)
	}
	return secret
}

// TestOpenUntilATokenExists: a store without tokens serves every request
// (open mode); once a token is created, the server requires one from its
// next read of the tokens on, within TokenRefresh, and a revoked token is
// refused within it too. Revoking every token does not reopen the server.
func TestOpenUntilATokenExists(t *testing.T) {
	e := setup(t, func(c *Config) { c.TokenRefresh = 2 * time.Second })
	tpl := e.template(hourTemplate) // open: no token
	secret := e.createToken("checkout", credential.Wallet)
	e.claim("u1", tpl) // the server's copy is younger than TokenRefresh
	e.clock.Add(2 * time.Second)
	e.problem(e.get("/v1/coupons/nothing"), http.StatusUnauthorized, "unauthorized")
	e.ok(e.post("/v1/users/u1/coupons", `{"template_id": "`+tpl+`"}`, as(secret)...), http.StatusCreated, &couponJSON{})

	if _, err := e.store.RevokeToken(t.Context(), store.RevokeTokenParams{Name: "checkout", Now: e.clock.Now()}); err != nil {
		t.Fatalf("RevokeToken: %v", err)
	}
	e.clock.Add(time.Second) // within the bound: still honoured
	e.ok(e.get("/v1/users/u1/coupons", as(secret)...), http.StatusOK, &map[string]any{})
	e.clock.Add(time.Second)
	res := e.get("/v1/users/u1/coupons", as(secret)...)
	e.problem(res, http.StatusUnauthorized, "unauthorized")
	if got := res.header.Get("WWW-Authenticate"); got != `Bearer realm="lapse", error="invalid_token"` {
		t.Fatalf("WWW-Authenticate: %q", got)
	}
	// Every token revoked: still closed.
	e.problem(e.get("/v1/users/u1/coupons"), http.StatusUnauthorized, "unauthorized")
	e.ok(e.get("/healthz"), http.StatusOK, &map[string]any{})
}

// TestIdempotencyPerCredential: an Idempotency-Key is scoped to the
// credential and the route. Two tokens using one key make two claims; a
// token's retry replays its own; the key on another route is another key
// (API.md: keys are scoped to the credential, and to method and path).
func TestIdempotencyPerCredential(t *testing.T) {
	onEveryStore(t, func(t *testing.T, e *env) {
		admin := e.createToken("ops", credential.Admin)
		a, bb := e.createToken("shop-a", credential.Wallet), e.createToken("shop-b", credential.Wallet)
		var tpl templateJSON
		e.ok(e.post("/v1/templates", hourTemplate, as(admin)...), http.StatusCreated, &tpl)
		body := `{"template_id": "` + tpl.ID + `"}`
		claim := func(secret, user string) couponJSON {
			t.Helper()
			var c couponJSON
			e.ok(e.post("/v1/users/"+user+"/coupons", body, append(as(secret), "Idempotency-Key", "k1")...), http.StatusCreated, &c)
			return c
		}
		ca, cb := claim(a, "u1"), claim(bb, "u1")
		if ca.ID == cb.ID {
			t.Fatalf("two tokens under one key got one coupon %s", ca.ID)
		}
		if again := claim(a, "u1"); again.ID != ca.ID {
			t.Fatalf("retry by shop-a: coupon %s, want %s", again.ID, ca.ID)
		}
		if again := claim(bb, "u1"); again.ID != cb.ID {
			t.Fatalf("retry by shop-b: coupon %s, want %s", again.ID, cb.ID)
		}
		other := claim(a, "u2") // another path
		if other.ID == ca.ID || other.UserID != "u2" {
			t.Fatalf("key on another route: %+v", other)
		}
		var cs struct {
			Coupons []couponJSON `json:"coupons"`
		}
		e.ok(e.get("/v1/users/u1/coupons", as(a)...), http.StatusOK, &cs)
		if len(cs.Coupons) != 2 {
			t.Fatalf("u1 holds %d coupons, want 2", len(cs.Coupons))
		}
		// The same body under the key on the same route by the other
		// token is that token's own key: it replays its own coupon,
		// while a changed body under one's key is a conflict.
		e.problem(e.post("/v1/users/u1/coupons", `{"template_id": "other"}`, append(as(a), "Idempotency-Key", "k1")...),
			http.StatusConflict, "idempotency-conflict")
	})
}

// TestActorRecorded: every event a request causes records the name of its
// token as data.actor — a claim's and a bulk issuance's coupon.claimed, a
// lock's coupon.locked, an order's order.created — on every store.
func TestActorRecorded(t *testing.T) {
	onEveryStore(t, func(t *testing.T, e *env) {
		admin := e.createToken("ops", credential.Admin)
		shop := e.createToken("checkout", credential.Wallet, credential.Orders)
		feed := e.createToken("feed", credential.Events)
		var tpl templateJSON
		e.ok(e.post("/v1/templates", hourTemplate, as(admin)...), http.StatusCreated, &tpl)
		e.ok(e.post("/v1/templates/"+tpl.ID+"/issue", `{"user_ids": ["u2"]}`, as(admin)...), http.StatusOK, &map[string]any{})
		var c couponJSON
		e.ok(e.post("/v1/users/u1/coupons", `{"template_id": "`+tpl.ID+`"}`, as(shop)...), http.StatusCreated, &c)
		e.ok(e.post("/v1/coupons/"+c.ID+"/void", `{"reason": "test"}`, as(admin)...), http.StatusOK, &c)
		e.ok(e.do(http.MethodPut, "/v1/skus/apple", `{"stock": 5}`, as(admin)...), http.StatusOK, &map[string]any{})
		e.ok(e.post("/v1/orders", appleOrder, as(shop)...), http.StatusCreated, &orderJSON{})

		var page eventsPage
		e.ok(e.get("/v1/events", as(feed)...), http.StatusOK, &page)
		var got []string
		for _, ev := range page.Events {
			var d struct {
				Actor string `json:"actor"`
			}
			if err := json.Unmarshal(ev.Data, &d); err != nil {
				t.Fatalf("%s data %s: %v", ev.Type, ev.Data, err)
			}
			got = append(got, ev.Type+" by "+d.Actor)
		}
		want := []string{"coupon.claimed by ops", "coupon.claimed by checkout", "coupon.voided by ops", "order.created by checkout"}
		if !slices.Equal(got, want) {
			t.Fatalf("events: %q, want %q", got, want)
		}
	})
}
