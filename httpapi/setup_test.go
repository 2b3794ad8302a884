package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lapsehq/lapse/outbox/outboxtest"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/store/backendtest"
)

// t0 is the fake clock's start: with a millisecond part, so formatting is
// seen to keep it.
var t0 = time.Date(2026, 11, 1, 8, 0, 0, 123_456_789, time.UTC)

// fakeClock is a settable clock.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// env is an API server over a fresh store.
type env struct {
	t     *testing.T
	url   string
	clock *fakeClock
	store store.Store
	logs  *outboxtest.LogBuffer
}

// setup starts a server over a new SQLite store; opts adjust its Config.
func setup(t *testing.T, opts ...func(*Config)) *env {
	t.Helper()
	return serveStore(t, openSQLite(t), opts...)
}

// openSQLite opens a new SQLite store, closed when t ends.
var openSQLite = backendtest.SQLite

// serveStore starts a server over st, with the clock at t0; opts adjust its
// Config. Every request it serves and its response are validated against
// openapi.json (validated).
func serveStore(t *testing.T, st store.Store, opts ...func(*Config)) *env {
	t.Helper()
	e := &env{t: t, clock: &fakeClock{now: t0}, store: st, logs: &outboxtest.LogBuffer{}}
	cfg := Config{
		Store:   st,
		Now:     e.clock.Now,
		Log:     slog.New(slog.NewTextHandler(e.logs, nil)),
		Metrics: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "lapse_up 1\n") }),
	}
	for _, o := range opts {
		o(&cfg)
	}
	srv := httptest.NewServer(validated(t, New(cfg)))
	t.Cleanup(srv.Close)
	e.url = srv.URL
	return e
}

// noRedirect is a client that answers a redirect as it comes (the mux
// redirects a path it cleans, such as an empty ID's "//"), so a test sees
// what the server said rather than where it pointed.
var noRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// response is what the server answered.
type response struct {
	status int
	header http.Header
	body   []byte
}

// wantReplayed fails t unless again, a retry under first's idempotency
// key, is answered as first was, to the byte.
func wantReplayed(t *testing.T, first, again response) {
	t.Helper()
	if again.status != first.status || !bytes.Equal(again.body, first.body) {
		t.Fatalf("replay: got %d %.300s, want %d %.300s", again.status, again.body, first.status, first.body)
	}
}

// requestIDMember is a problem's request_id, which differs from one
// request to the next.
var requestIDMember = regexp.MustCompile(`"request_id":"[^"]*"`)

// withoutRequestID is body without the value of its request_id, for
// comparing the answers of two requests.
func withoutRequestID(body []byte) []byte {
	return requestIDMember.ReplaceAll(body, []byte(`"request_id":""`))
}

// replay sends a request with send twice, the second time a minute later
// on the clock, so that a re-rendered answer would show: the first must be
// answered status, decoded into v, the second with the first's answer
// again. It returns both answers.
func (e *env) replay(status int, v any, send func() response) (first, again response) {
	e.t.Helper()
	first = send()
	e.ok(first, status, v)
	e.clock.Add(time.Minute)
	again = send()
	wantReplayed(e.t, first, again)
	return first, again
}

// do sends a request; header holds key, value pairs.
func (e *env) do(method, path, body string, header ...string) response {
	e.t.Helper()
	res, err := send(e.url, method, path, body, header)
	if err != nil {
		e.t.Fatalf("%s %s: %v", method, path, err)
	}
	return res
}

// send sends a request to the server at base; header holds key, value
// pairs. Unlike do, it may run off the test's goroutine. A change says
// Content-Type: application/json, as a client's must in open mode, unless
// header names another ("" sends none); a Host in header is sent as the
// request's Host.
func send(base, method, path, body string, header []string) (response, error) {
	req, err := http.NewRequest(method, base+path, strings.NewReader(body))
	if err != nil {
		return response{}, err
	}
	if method != http.MethodGet {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
		if http.CanonicalHeaderKey(header[i]) == "Host" {
			req.Host = header[i+1]
		}
		if header[i+1] == "" {
			req.Header.Del(header[i])
		}
	}
	res, err := noRedirect.Do(req)
	if err != nil {
		return response{}, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return response{}, fmt.Errorf("read body: %w", err)
	}
	return response{status: res.StatusCode, header: res.Header, body: b}, nil
}

func (e *env) get(path string, header ...string) response {
	e.t.Helper()
	return e.do(http.MethodGet, path, "", header...)
}

func (e *env) post(path, body string, header ...string) response {
	e.t.Helper()
	return e.do(http.MethodPost, path, body, header...)
}

// ok decodes a successful JSON answer of status into v.
func (e *env) ok(res response, status int, v any) {
	e.t.Helper()
	if res.status != status {
		e.t.Fatalf("status: got %d, want %d; body %s", res.status, status, res.body)
	}
	if got := res.header.Get("Content-Type"); got != "application/json" {
		e.t.Fatalf("content type: got %q, want application/json", got)
	}
	if err := json.Unmarshal(res.body, v); err != nil {
		e.t.Fatalf("decode %s: %v", res.body, err)
	}
}

// okJSON checks res as ok does and returns the JSON it decodes.
func okJSON[T any](e *env, res response, status int) T {
	e.t.Helper()
	var v T
	e.ok(res, status, &v)
	return v
}

// rejection is a body a route refuses: the status and problem slug of its
// answer, and the field the detail of an invalid names first ("" for none).
type rejection struct {
	body   string
	status int
	slug   string
	field  string
}

// wantRejected sends the body of each case by send and checks the answer
// is the case's refusal.
func (e *env) wantRejected(cases []rejection, send func(body string) response) {
	e.t.Helper()
	for _, c := range cases {
		p := e.problem(send(c.body), c.status, c.slug)
		if !strings.HasPrefix(p.Detail, c.field) {
			e.t.Fatalf("%s: detail %q, want it to name %q", c.body, p.Detail, c.field)
		}
	}
}

// problem checks res is the problem document of status and slug and
// returns it.
func (e *env) problem(res response, status int, slug string) problem {
	e.t.Helper()
	if res.status != status {
		e.t.Fatalf("status: got %d, want %d; body %s", res.status, status, res.body)
	}
	if got := res.header.Get("Content-Type"); got != "application/problem+json" {
		e.t.Fatalf("content type: got %q, want application/problem+json", got)
	}
	var p problem
	if err := json.Unmarshal(res.body, &p); err != nil {
		e.t.Fatalf("decode problem %s: %v", res.body, err)
	}
	if p.Type != "/problems/"+slug || p.Status != status || p.Title == "" || p.Detail == "" {
		e.t.Fatalf("problem: got %+v, want type /problems/%s, status %d, a title and a detail", p, slug, status)
	}
	return p
}

// template creates a template from body and returns its id.
func (e *env) template(body string) string {
	e.t.Helper()
	var v templateJSON
	e.ok(e.post("/v1/templates", body), http.StatusCreated, &v)
	return v.ID
}

// hourTemplate is a template whose coupons last an hour.
const hourTemplate = `{"name": "¥20 off", "value": 2000, "validity": {"duration": "1h"}}`

// claim claims a coupon of templateID for user.
func (e *env) claim(user, templateID string) couponJSON {
	e.t.Helper()
	return okJSON[couponJSON](e, e.post("/v1/users/"+user+"/coupons", `{"template_id": "`+templateID+`"}`), http.StatusCreated)
}

// coupon reads a coupon, returning the raw answer to compare whole.
func (e *env) coupon(id string) (couponJSON, string) {
	e.t.Helper()
	res := e.get("/v1/coupons/" + id)
	var c couponJSON
	e.ok(res, http.StatusOK, &c)
	return c, string(res.body)
}

// userCoupons lists a user's coupons, query included in path.
func (e *env) userCoupons(pathAndQuery string) []couponJSON {
	e.t.Helper()
	var v struct {
		Coupons []couponJSON `json:"coupons"`
	}
	e.ok(e.get(pathAndQuery), http.StatusOK, &v)
	return v.Coupons
}

// ms formats t as the API does, for expected values.
func ms(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z07:00") }
