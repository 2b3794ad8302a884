package httpapi

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/lapsehq/lapse/outbox/outboxtest"
)

// record is a JSON log line of the server's.
type record struct {
	Level     string
	Msg       string
	RequestID string `json:"request_id"`
	Method    string
	Path      string
	Status    int
	Duration  int64
}

// debugSetup is setup with the server logging JSON at debug level to the
// buffer it returns.
func debugSetup(t *testing.T) (*env, *outboxtest.LogBuffer) {
	t.Helper()
	logs := &outboxtest.LogBuffer{}
	e := setup(t, func(c *Config) {
		c.Log = slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	})
	return e, logs
}

// records are the log lines of logs with message msg.
func records(t *testing.T, logs *outboxtest.LogBuffer, msg string) []record {
	t.Helper()
	var out []record
	for l := range strings.Lines(logs.String()) {
		var r record
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("log line %q: %v", l, err)
		}
		if r.Msg == msg {
			out = append(out, r)
		}
	}
	return out
}

// TestRequestID: an answer carries the request's X-Request-Id when it is
// sane, a fresh one otherwise (too long, a space, not ASCII, none); a
// problem repeats it as request_id, and the request's access line at
// debug level carries it with the method, path and status.
func TestRequestID(t *testing.T) {
	e, logs := debugSetup(t)
	for _, c := range []struct {
		sent  string
		taken bool
	}{
		{"req-42_a.b:c/d=e;f", true},
		{strings.Repeat("x", maxRequestIDLen), true},
		{strings.Repeat("x", maxRequestIDLen+1), false},
		{"a b", false},
		{"caf\xc3\xa9", false},
		{"", false},
	} {
		res := e.get("/v1/coupons/nope", requestIDHeader, c.sent)
		id := res.header.Get(requestIDHeader)
		switch {
		case c.taken && id != c.sent:
			t.Errorf("sent %q: answered %q, want it taken", c.sent, id)
		case !c.taken && (id == c.sent || !saneRequestID(id) || len(id) != 26):
			t.Errorf("sent %q: answered %q, want a fresh ID of 26 characters", c.sent, id)
		}
		if p := e.problem(res, http.StatusNotFound, "not-found"); p.RequestID != id {
			t.Errorf("sent %q: problem request_id %q, want the header's %q", c.sent, p.RequestID, id)
		}
		if !strings.Contains(logs.String(), `"request_id":"`+id+`"`) {
			t.Errorf("sent %q: no log line of %q:\n%s", c.sent, id, logs.String())
		}
	}
	// A success carries one too.
	res := e.get("/healthz", requestIDHeader, "health-1")
	if id := res.header.Get(requestIDHeader); res.status != http.StatusOK || id != "health-1" {
		t.Errorf("GET /healthz: %d with X-Request-Id %q, want 200 with health-1", res.status, id)
	}
	access := records(t, logs, "httpapi: request")
	if len(access) != 7 {
		t.Fatalf("got %d access lines, want one a request, 7:\n%s", len(access), logs.String())
	}
	last := access[6]
	if last.Level != "DEBUG" || last.RequestID != "health-1" || last.Method != http.MethodGet || last.Path != "/healthz" || last.Status != http.StatusOK {
		t.Errorf("access line of GET /healthz: got %+v, want DEBUG, health-1, GET /healthz 200", last)
	}
}

// TestRequestIDInFailureLog: a 5xx's error line carries the request ID
// its answer and its problem do.
func TestRequestIDInFailureLog(t *testing.T) {
	e, logs := debugSetup(t)
	e.store.Close()
	res := e.get("/v1/coupons/c1", requestIDHeader, "broken-1")
	if p := e.problem(res, http.StatusInternalServerError, "internal"); p.RequestID != "broken-1" {
		t.Errorf("problem request_id: got %q, want broken-1", p.RequestID)
	}
	failed := records(t, logs, "httpapi: request failed")
	if len(failed) != 1 || failed[0].RequestID != "broken-1" || failed[0].Level != "ERROR" {
		t.Fatalf("failure lines: got %+v, want one ERROR of broken-1:\n%s", failed, logs.String())
	}
}

// TestNoAccessLogAboveDebug: at info level a request is not logged.
func TestNoAccessLogAboveDebug(t *testing.T) {
	logs := &outboxtest.LogBuffer{}
	e := setup(t, func(c *Config) { c.Log = slog.New(slog.NewJSONHandler(logs, nil)) })
	if res := e.get("/healthz"); res.status != http.StatusOK || res.header.Get(requestIDHeader) == "" {
		t.Fatalf("GET /healthz: got %d, X-Request-Id %q; want 200 and an ID", res.status, res.header.Get(requestIDHeader))
	}
	if logs.String() != "" {
		t.Fatalf("log at info: got %q, want nothing", logs.String())
	}
}

// FuzzRequestID: whatever X-Request-Id a request sends, the ID it gets is
// 1 to maxRequestIDLen printable ASCII characters without space: the
// header's if the header is that, a fresh one if not.
func FuzzRequestID(f *testing.F) {
	for _, s := range []string{"req-1", "", "a b", "caf\xc3\xa9", "x\r\nInjected: 1", strings.Repeat("y", maxRequestIDLen+1)} {
		f.Add(s)
	}
	printable := func(s string) bool {
		return s != "" && len(s) <= maxRequestIDLen && !strings.ContainsFunc(s, func(r rune) bool { return r <= ' ' || r > '~' })
	}
	f.Fuzz(func(t *testing.T, sent string) {
		id := requestID(http.Header{requestIDHeader: {sent}})
		if !printable(id) {
			t.Fatalf("sent %q: got %q, not 1 to %d printable ASCII characters", sent, id, maxRequestIDLen)
		}
		if (id == sent) != printable(sent) {
			t.Fatalf("sent %q: got %q; want it taken if and only if it is printable ASCII of length 1 to %d", sent, id, maxRequestIDLen)
		}
	})
}
