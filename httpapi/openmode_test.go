package httpapi

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/lapsehq/lapse/credential"
)

// TestOpenModeBrowser (issue 23, defect 6): in open mode, on every store,
// what a browser may send for a page of another site is refused 403
// forbidden and changes nothing: a change without Content-Type (a
// no-cors POST), an Origin or a Sec-Fetch-Site of another site, a Host
// that is not a loopback name or the address reached (DNS rebinding).
// lapse's own clients, which send JSON to 127.0.0.1 or localhost, pass.
// Once a token exists none of this is asked: the token is the proof.
func TestOpenModeBrowser(t *testing.T) {
	onEveryStore(t, func(t *testing.T, e *env) {
		f := newAuthFixture(e, "")
		u, err := url.Parse(e.url)
		if err != nil {
			t.Fatal(err)
		}
		port := u.Port()
		claim := `{"template_id": "` + f.tpl + `"}`
		refused := []struct {
			name   string
			method string
			header []string
		}{
			{"no Content-Type", "POST", []string{"Content-Type", ""}},
			{"another origin", "POST", []string{"Origin", "http://evil.example"}},
			{"another port", "POST", []string{"Origin", "http://127.0.0.1:1"}},
			{"an opaque origin", "POST", []string{"Origin", "null"}},
			{"cross-site", "POST", []string{"Sec-Fetch-Site", "cross-site"}},
			{"same-site: another local server", "POST", []string{"Sec-Fetch-Site", "same-site"}},
			{"a rebound name", "POST", []string{"Host", "evil.example:" + port}},
			{"a rebound name, read", "GET", []string{"Host", "evil.example:" + port}},
			{"a loopback name on another port", "GET", []string{"Host", "localhost:1"}},
			{"no port", "GET", []string{"Host", "127.0.0.1"}},
			{"a cross-site read", "GET", []string{"Sec-Fetch-Site", "cross-site"}},
		}
		for _, c := range refused {
			before := snapshot(t, e.store)
			p := e.problem(e.do(c.method, "/v1/users/u1/coupons", claim, c.header...), http.StatusForbidden, "forbidden")
			if !strings.HasPrefix(p.Detail, "open mode") {
				t.Fatalf("%s: detail %q, want it to say open mode", c.name, p.Detail)
			}
			if after := snapshot(t, e.store); after != before {
				t.Fatalf("%s changed state:\n before %s\n after %s", c.name, before, after)
			}
		}
		// Every change, on every route, needs the Content-Type;
		// another type than JSON is malformed, in either mode.
		for _, rt := range routes {
			if rt.method == "GET" || rt.scope == public {
				continue
			}
			before := snapshot(t, e.store)
			e.problem(e.do(rt.method, rt.path(f), rt.body, "Content-Type", ""), http.StatusForbidden, "forbidden")
			e.problem(e.do(rt.method, rt.path(f), rt.body, "Content-Type", "text/plain"), http.StatusBadRequest, "malformed")
			if after := snapshot(t, e.store); after != before {
				t.Fatalf("%s changed state:\n before %s\n after %s", rt.pattern, before, after)
			}
		}
		served := [][]string{
			{"Origin", e.url},
			{"Sec-Fetch-Site", "same-origin", "Origin", e.url},
			{"Sec-Fetch-Site", "none"},
			{"Host", "localhost:" + port, "Origin", "http://localhost:" + port},
			{"Host", "[::1]:" + port},
		}
		for _, h := range served {
			e.ok(e.do("POST", "/v1/users/u1/coupons", claim, h...), http.StatusCreated, &couponJSON{})
		}

		// Once a token exists, the token decides, and a body without
		// Content-Type is read as JSON again.
		secret := e.createToken("checkout", credential.Wallet)
		e.clock.Add(DefaultTokenRefresh)
		e.ok(e.do("POST", "/v1/users/u1/coupons", claim, append(as(secret), "Content-Type", "")...), http.StatusCreated, &couponJSON{})
		e.problem(e.do("POST", "/v1/users/u1/coupons", claim, "Host", "evil.example:"+port), http.StatusUnauthorized, "unauthorized")
	})
}

// TestSecurityHeaders (issue 23, defect 6): every answer, the console's
// page and files, the API's JSON and its problems, says not to guess its
// type, to run only what the server sent, and not to be framed.
func TestSecurityHeaders(t *testing.T) {
	e := setup(t)
	for _, path := range []string{"/", "/console/console.js", "/console/console.css", "/v1/templates?limit=1",
		"/v1/coupons/nothing", "/nowhere", "/problems/forbidden", "/openapi.json", "/healthz"} {
		h := e.get(path).header
		if got := h.Get("X-Content-Type-Options"); got != "nosniff" {
			t.Fatalf("%s: X-Content-Type-Options %q, want nosniff", path, got)
		}
		if got := h.Get("X-Frame-Options"); got != "DENY" {
			t.Fatalf("%s: X-Frame-Options %q, want DENY", path, got)
		}
		csp := h.Get("Content-Security-Policy")
		for _, want := range []string{"default-src 'none'", "script-src 'self'", "frame-ancestors 'none'"} {
			if !strings.Contains(csp, want) {
				t.Fatalf("%s: Content-Security-Policy %q, want %s", path, csp, want)
			}
		}
		if strings.Contains(csp, "unsafe") {
			t.Fatalf("%s: Content-Security-Policy %q allows unsafe sources", path, csp)
		}
	}
}

// TestAuthorizationTwice (issue 23): two Authorization headers are 401
// unauthorized on every store, in open mode and once tokens exist, even if
// one holds a valid token: which one names the caller would be a guess.
func TestAuthorizationTwice(t *testing.T) {
	onEveryStore(t, func(t *testing.T, e *env) {
		secret := credential.New()
		twice := func() response {
			t.Helper()
			req, err := http.NewRequest(http.MethodGet, e.url+"/v1/templates?limit=1", nil)
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Add("Authorization", "Bearer "+secret)
			req.Header.Add("Authorization", "Bearer "+credential.New())
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			body, err := io.ReadAll(res.Body)
			if err != nil {
				t.Fatal(err)
			}
			return response{status: res.StatusCode, header: res.Header, body: body}
		}
		e.problem(twice(), http.StatusUnauthorized, "unauthorized")
		secret = e.createToken("admin", credential.Admin)
		e.clock.Add(DefaultTokenRefresh)
		res := twice()
		e.problem(res, http.StatusUnauthorized, "unauthorized")
		if got := res.header.Get("WWW-Authenticate"); got != `Bearer realm="lapse", error="invalid_request"` {
			t.Fatalf("WWW-Authenticate: %q", got)
		}
	})
}

// TestOpenModeDecidedOnce (issue 23): a server told it started with tokens
// (Config.Closed, as lapse serve does) never serves open, on every store,
// even while the store holds none: every request is 401. One that started
// open closes for good at its first token (TestOpenUntilATokenExists; the
// rows deleted while serving: cmd/lapse TestTokensDeletedStayClosed).
func TestOpenModeDecidedOnce(t *testing.T) {
	onEveryStore(t, func(t *testing.T, e *env) {
		for range 2 {
			e.problem(e.get("/v1/templates?limit=1"), http.StatusUnauthorized, "unauthorized")
			e.problem(e.post("/v1/templates", hourTemplate), http.StatusUnauthorized, "unauthorized")
			e.clock.Add(DefaultTokenRefresh)
		}
		e.ok(e.get("/healthz"), http.StatusOK, &map[string]any{})
	}, func(c *Config) { c.Closed = true })
}
