package httpapi

import (
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lapsehq/lapse/credential"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/store/backendtest"
	"github.com/lapsehq/lapse/storetype"
)

// creds are tokens of a store, by who holds them: one per scope, "all"
// holding every scope, and "revoked", which held every scope.
type creds map[string]string

// mintTokens stores the tokens of creds in st.
func mintTokens(t *testing.T, st store.Store) creds {
	t.Helper()
	out := creds{}
	mint := func(name string, scopes ...credential.Scope) {
		_, secret, err := st.CreateToken(t.Context(), store.CreateTokenParams{Name: name, Scopes: scopes, Now: t0})
		if err != nil {
			t.Fatalf("CreateToken(%s): %v", name, err)
		}
		out[name] = secret
	}
	for _, sc := range credential.Scopes {
		mint(sc.String(), sc)
	}
	mint("all", credential.Scopes...)
	mint("revoked", credential.Scopes...)
	if _, err := st.RevokeToken(t.Context(), store.RevokeTokenParams{Name: "revoked", Now: t0}); err != nil {
		t.Fatalf("RevokeToken: %v", err)
	}
	return out
}

// as is the Authorization header of a bearer token.
func as(secret string) []string { return []string{"Authorization", "Bearer " + secret} }

// authFixture is what the routes of the table act on: made with the "all"
// token, so that each route's first request with a scope that reaches it
// succeeds.
type authFixture struct {
	tpl                                     string
	closing                                 string // a template to close
	get, lock, unlock, redeem, refund, void string // coupons
	order, pay, cancel                      string // orders
}

func newAuthFixture(e *env, all string) authFixture {
	e.t.Helper()
	h := as(all)
	post := func(path, body string, status int, v any) {
		e.t.Helper()
		e.ok(e.post(path, body, h...), status, v)
	}
	var f authFixture
	var tpl templateJSON
	post("/v1/templates", hourTemplate, http.StatusCreated, &tpl)
	f.tpl = tpl.ID
	post("/v1/templates", hourTemplate, http.StatusCreated, &tpl)
	f.closing = tpl.ID
	claim := func() string {
		var c couponJSON
		post("/v1/users/u1/coupons", `{"template_id": "`+f.tpl+`"}`, http.StatusCreated, &c)
		return c.ID
	}
	f.get, f.lock, f.unlock, f.redeem, f.refund, f.void = claim(), claim(), claim(), claim(), claim(), claim()
	post("/v1/coupons/"+f.unlock+"/lock", `{"order_id": "o-u", "ttl": "15m"}`, http.StatusOK, &couponJSON{})
	post("/v1/coupons/"+f.refund+"/redeem", `{"order_id": "o-f"}`, http.StatusOK, &couponJSON{})
	e.ok(e.do(http.MethodPut, "/v1/skus/apple", `{"stock": 100}`, h...), http.StatusOK, &map[string]any{})
	order := func() string {
		var o orderJSON
		post("/v1/orders", appleOrder, http.StatusCreated, &o)
		return o.ID
	}
	f.order, f.pay, f.cancel = order(), order(), order()
	return f
}

// appleOrder is an order of one apple, 1500 due.
const appleOrder = `{"user_id": "u1", "items": [{"sku": "apple", "qty": 1, "unit_price": 1500}]}`

// route is one route of the API, a request to it, and the one scope that
// reaches it (public: any request).
type route struct {
	pattern, method string
	path            func(authFixture) string
	body            string
	scope           credential.Scope
	// status is what the first request that reaches it answers.
	status int
}

func fixed(p string) func(authFixture) string { return func(authFixture) string { return p } }

// routes is the route/scope table of issue 13, every route of the API.
var routes = []route{
	{"POST /v1/templates", "POST", fixed("/v1/templates"), hourTemplate, credential.Admin, 201},
	{"GET /v1/templates/{id}", "GET", func(f authFixture) string { return "/v1/templates/" + f.tpl }, "", credential.Admin, 200},
	{"POST /v1/templates/{id}/issue", "POST", func(f authFixture) string { return "/v1/templates/" + f.tpl + "/issue" }, `{"user_ids": ["u9"]}`, credential.Admin, 200},
	{"GET /v1/templates", "GET", fixed("/v1/templates?limit=1"), "", credential.Admin, 200},
	{"PATCH /v1/templates/{id}", "PATCH", func(f authFixture) string { return "/v1/templates/" + f.tpl }, `{"name": "renamed"}`, credential.Admin, 200},
	{"POST /v1/templates/{id}/close", "POST", func(f authFixture) string { return "/v1/templates/" + f.closing + "/close" }, `{"reason": "leaked"}`, credential.Admin, 200},
	{"POST /v1/templates/{id}/void", "POST", func(f authFixture) string { return "/v1/templates/" + f.tpl + "/void" }, `{"dry_run": true}`, credential.Admin, 200},
	{"POST /v1/templates/{id}/extend", "POST", func(f authFixture) string { return "/v1/templates/" + f.tpl + "/extend" }, `{"by": "1h", "dry_run": true}`, credential.Admin, 200},
	{"POST /v1/operations", "POST", fixed("/v1/operations"), `{"kind": "void", "coupon_ids": ["cpn_none"]}`, credential.Admin, 202},
	// The route is reached, and the operation is unknown.
	{"GET /v1/operations/{id}", "GET", fixed("/v1/operations/op_none"), "", credential.Admin, 404},
	{"GET /v1/operations", "GET", fixed("/v1/operations"), "", credential.Admin, 200},
	{"POST /v1/operations/{id}/cancel", "POST", fixed("/v1/operations/op_none/cancel"), "", credential.Admin, 404},
	{"PUT /v1/users/{user_id}", "PUT", fixed("/v1/users/u1"), `{"timezone": "Asia/Shanghai", "channels": ["sms"]}`, credential.Admin, 200},
	{"GET /v1/users/{user_id}", "GET", fixed("/v1/users/u1"), "", credential.Admin, 200},
	{"POST /v1/users/{user_id}/coupons", "POST", fixed("/v1/users/u1/coupons"), "", credential.Wallet, 201},
	{"GET /v1/users/{user_id}/coupons", "GET", fixed("/v1/users/u1/coupons"), "", credential.Wallet, 200},
	{"GET /v1/coupons/{id}", "GET", func(f authFixture) string { return "/v1/coupons/" + f.get }, "", credential.Wallet, 200},
	{"POST /v1/coupons/{id}/lock", "POST", func(f authFixture) string { return "/v1/coupons/" + f.lock + "/lock" }, `{"order_id": "o-l", "ttl": "15m"}`, credential.Wallet, 200},
	{"POST /v1/coupons/{id}/unlock", "POST", func(f authFixture) string { return "/v1/coupons/" + f.unlock + "/unlock" }, `{"order_id": "o-u"}`, credential.Wallet, 200},
	{"POST /v1/coupons/{id}/redeem", "POST", func(f authFixture) string { return "/v1/coupons/" + f.redeem + "/redeem" }, `{"order_id": "o-r"}`, credential.Wallet, 200},
	{"POST /v1/coupons/{id}/refund", "POST", func(f authFixture) string { return "/v1/coupons/" + f.refund + "/refund" }, `{"order_id": "o-f"}`, credential.Wallet, 200},
	{"POST /v1/coupons/{id}/void", "POST", func(f authFixture) string { return "/v1/coupons/" + f.void + "/void" }, `{"reason": "fraud"}`, credential.Admin, 200},
	{"PUT /v1/skus/{sku}", "PUT", fixed("/v1/skus/apple"), `{"stock": 50}`, credential.Admin, 200},
	{"GET /v1/skus/{sku}", "GET", fixed("/v1/skus/apple"), "", credential.Orders, 200},
	{"POST /v1/orders", "POST", fixed("/v1/orders"), appleOrder, credential.Orders, 201},
	{"GET /v1/orders/{id}", "GET", func(f authFixture) string { return "/v1/orders/" + f.order }, "", credential.Orders, 200},
	{"POST /v1/orders/{id}/pay", "POST", func(f authFixture) string { return "/v1/orders/" + f.pay + "/pay" }, `{"payment_id": "p1", "amount": 1500}`, credential.Orders, 200},
	{"POST /v1/orders/{id}/cancel", "POST", func(f authFixture) string { return "/v1/orders/" + f.cancel + "/cancel" }, "", credential.Orders, 200},
	{"GET /v1/events", "GET", fixed("/v1/events"), "", credential.Events, 200},
	{"GET /v1/sinks", "GET", fixed("/v1/sinks"), "", credential.Admin, 200},
	// No relay: the route is reached, and the sink is unknown.
	{"POST /v1/sinks/{name}/replay", "POST", fixed("/v1/sinks/hooks/replay"), "", credential.Admin, 404},
	{"POST /v1/archive", "POST", fixed("/v1/archive"), `{"before": "2020-01-01T00:00:00Z", "dry_run": true}`, credential.Admin, 200},
	{"GET /v1/reconcile", "GET", fixed("/v1/reconcile"), "", credential.Admin, 200},
	{"POST /v1/reconcile", "POST", fixed("/v1/reconcile"), `{"repair": true}`, credential.Admin, 200},
	{"GET /v1/console/forecast", "GET", fixed("/v1/console/forecast"), "", credential.Admin, 200},
	{"GET /v1/console/status", "GET", fixed("/v1/console/status"), "", credential.Admin, 200},
	{"GET /{$}", "GET", fixed("/"), "", public, 200},
	{"GET /console/{file}", "GET", fixed("/console/console.js"), "", public, 200},
	{"GET /metrics", "GET", fixed("/metrics"), "", credential.Metrics, 200},
	{"GET /healthz", "GET", fixed("/healthz"), "", public, 200},
	{"GET /readyz", "GET", fixed("/readyz"), "", public, 200},
	{"GET /openapi.json", "GET", fixed("/openapi.json"), "", public, 200},
	{"GET /problems/{slug}", "GET", fixed("/problems/not-found"), "", public, 200},
}

// TestRouteTableComplete: the table covers every route the server
// serves, with the scope the server asks.
func TestRouteTableComplete(t *testing.T) {
	srv := New(Config{Store: openSQLite(t), Now: time.Now, Metrics: http.NotFoundHandler()}).(*server)
	want := map[string]credential.Scope{}
	for _, rt := range routes {
		want[rt.pattern] = rt.scope
	}
	if !maps.Equal(srv.routes, want) {
		t.Fatalf("server routes:\n%v\nwant the table's:\n%v", srv.routes, want)
	}
}

// TestRouteScopes: on every store, every route is reached by exactly the
// tokens holding its scope; any other request is 401 unauthorized (no
// token, an unknown one, a revoked one) or 403 forbidden (another scope),
// a problem document with a WWW-Authenticate challenge naming no token,
// and changes nothing.
func TestRouteScopes(t *testing.T) {
	for _, b := range backendtest.All(t) {
		t.Run(b.Name, func(t *testing.T) {
			st := b.Open(t)
			tokens := mintTokens(t, st)
			e := serveStore(t, st)
			f := newAuthFixture(e, tokens["all"])
			tpl := f.tpl
			for _, rt := range routes {
				body := rt.body
				if rt.pattern == "POST /v1/users/{user_id}/coupons" {
					body = `{"template_id": "` + tpl + `"}`
				}
				path := rt.path(f)
				refused := map[string][]string{"no token": nil, "unknown token": as(credential.New()),
					"revoked token": as(tokens["revoked"]), "malformed header": {"Authorization", "Basic " + tokens["all"]}}
				reach := []string{"all"}
				for _, sc := range credential.Scopes {
					if sc == rt.scope {
						reach = append([]string{sc.String()}, reach...)
					} else {
						refused[sc.String()] = as(tokens[sc.String()])
					}
				}
				if rt.scope == public {
					reach = slices.Collect(maps.Keys(refused))
					clear(refused)
				}
				for _, who := range slices.Sorted(maps.Keys(refused)) {
					before := snapshot(t, st)
					res := e.do(rt.method, path, body, refused[who]...)
					status, slug := http.StatusUnauthorized, "unauthorized"
					if _, isScope := tokens[who]; isScope {
						status, slug = http.StatusForbidden, "forbidden"
					}
					e.problem(res, status, slug)
					if got := res.header.Get("WWW-Authenticate"); !strings.HasPrefix(got, `Bearer realm="lapse"`) {
						t.Fatalf("%s by %s: WWW-Authenticate %q", rt.pattern, who, got)
					}
					for _, secret := range tokens {
						if strings.Contains(string(res.body), secret) || strings.Contains(res.header.Get("WWW-Authenticate"), secret) {
							t.Fatalf("%s by %s: the answer shows a token: %s", rt.pattern, who, res.body)
						}
					}
					if after := snapshot(t, st); after != before {
						t.Fatalf("%s by %s (%d) changed the store:\nbefore %s\nafter  %s", rt.pattern, who, status, before, after)
					}
				}
				for i, who := range reach {
					var h []string
					if secret, ok := tokens[who]; ok && rt.scope != public {
						h = as(secret)
					}
					res := e.do(rt.method, path, body, h...)
					if res.status == http.StatusUnauthorized || res.status == http.StatusForbidden {
						t.Fatalf("%s by %s: got %d %s, want it reached", rt.pattern, who, res.status, res.body)
					}
					if i == 0 && res.status != rt.status {
						t.Fatalf("%s by %s: got %d %s, want %d", rt.pattern, who, res.status, res.body, rt.status)
					}
				}
			}
		})
	}
}

// snapshot is what the store holds that a request could change, as text.
func snapshot(t *testing.T, st store.Store) string {
	t.Helper()
	ctx := t.Context()
	var parts []any
	add := func(v any, err error) {
		t.Helper()
		if err != nil && err != storetype.ErrNotFound {
			t.Fatalf("snapshot: %v", err)
		}
		parts = append(parts, v)
	}
	add(st.Events(ctx, store.EventsParams{Limit: 10000}))
	add(st.Templates(ctx, storetype.TemplatesParams{Limit: 1000}))
	for _, u := range []string{"u1", "u9"} {
		add(st.UserCoupons(ctx, storetype.UserCouponsParams{UserID: u, Now: t0, Limit: storetype.MaxWalletPage, Archived: true}))
		add(st.User(ctx, u))
	}
	add(st.SKU(ctx, "apple"))
	add(st.Tokens(ctx))
	add(st.Stats(ctx, t0))
	b, err := json.Marshal(parts)
	if err != nil {
		t.Fatalf("snapshot: %v", err)
	}
	return string(b)
}
