package httpapi

import (
	"errors"
	"net/http"
	"strings"
	"testing"
)

func TestUnknownRoute(t *testing.T) {
	e := setup(t)
	for _, path := range []string{"/v1/nope", "/v1/coupons/x/frobnicate", "/v1/coupons/x/lock/"} {
		e.problem(e.post(path, `{}`), http.StatusNotFound, "not-found")
	}
}

func TestWrongMethod(t *testing.T) {
	e := setup(t)
	res := e.do(http.MethodDelete, "/v1/coupons/x", "")
	e.problem(res, http.StatusMethodNotAllowed, "method-not-allowed")
	if got := res.header.Get("Allow"); !strings.Contains(got, "GET") {
		t.Fatalf("Allow: got %q, want it to list GET", got)
	}
	e.problem(e.get("/v1/coupons/x/lock"), http.StatusMethodNotAllowed, "method-not-allowed")
	e.problem(e.post("/", `{}`), http.StatusMethodNotAllowed, "method-not-allowed") // the console's page
}

func TestHealthz(t *testing.T) {
	e := setup(t)
	res := e.get("/healthz")
	if res.status != http.StatusOK || string(res.body) != `{"status":"ok"}` {
		t.Fatalf("healthz: got %d %s, want 200 {\"status\":\"ok\"}", res.status, res.body)
	}
}

func TestReadyz(t *testing.T) {
	e := setup(t)
	res := e.get("/readyz")
	if res.status != http.StatusOK || string(res.body) != `{"status":"ready"}` {
		t.Fatalf("readyz: got %d %s, want 200 {\"status\":\"ready\"}", res.status, res.body)
	}
	e.store.Close()
	e.problem(e.get("/readyz"), http.StatusServiceUnavailable, "not-ready")
	if got := e.logs.String(); !strings.Contains(got, "httpapi:") {
		t.Fatalf("log: got %q, want the 503 logged", got)
	}
}

// TestReadyzSaysWhyNotFiring: an engine that holds its firing (a skewed
// clock) makes readyz fail with its reason.
func TestReadyzSaysWhyNotFiring(t *testing.T) {
	var why error
	e := setup(t, func(c *Config) { c.Firing = func() error { return why } })
	if res := e.get("/readyz"); res.status != http.StatusOK {
		t.Fatalf("readyz while firing: got %d %s, want 200", res.status, res.body)
	}
	why = errors.New("clock skew 3s against the database passes the bound 1s: not firing")
	p := e.problem(e.get("/readyz"), http.StatusServiceUnavailable, "not-ready")
	if !strings.Contains(p.Detail, "clock skew 3s") {
		t.Fatalf("detail: got %q, want the engine's reason", p.Detail)
	}
}

func TestInternalErrorHidesCause(t *testing.T) {
	e := setup(t)
	e.store.Close()
	p := e.problem(e.get("/v1/coupons/c1"), http.StatusInternalServerError, "internal")
	if strings.Contains(p.Detail, "closed") {
		t.Fatalf("detail: got %q, want no word of the cause", p.Detail)
	}
	if got := e.logs.String(); !strings.Contains(got, "httpapi: request failed") || !strings.Contains(got, "closed") {
		t.Fatalf("log: got %q, want the failure and its cause", got)
	}
}

func TestMetrics(t *testing.T) {
	e := setup(t)
	res := e.get("/metrics")
	if res.status != http.StatusOK || string(res.body) != "lapse_up 1\n" {
		t.Fatalf("metrics: got %d %q, want 200 from the Metrics handler", res.status, res.body)
	}
	e = setup(t, func(c *Config) { c.Metrics = nil })
	e.problem(e.get("/metrics"), http.StatusNotFound, "not-found")
}

func TestBodyTooLarge(t *testing.T) {
	e := setup(t)
	body := `{"template_id": "` + strings.Repeat("x", maxBody) + `"}`
	e.problem(e.post("/v1/users/u1/coupons", body), http.StatusBadRequest, "malformed")
}
