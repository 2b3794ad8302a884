package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/lapsehq/lapse/engine"
	"github.com/lapsehq/lapse/outbox/outboxtest"
)

// TestServeCapsLockTTL: --max-lock-ttl, or LAPSE_MAX_LOCK_TTL, reaches the
// API: a lock asking more is refused, one asking that much is taken.
func TestServeCapsLockTTL(t *testing.T) {
	for _, how := range []string{"flag", "env"} {
		t.Run(how, func(t *testing.T) {
			var s *served
			if how == "flag" {
				s = startServe(t, "--max-lock-ttl", "2m")
			} else {
				t.Setenv("LAPSE_MAX_LOCK_TTL", "2m")
				s = startServe(t)
			}
			_, body := s.call(t, http.MethodPost, "/v1/templates", `{"name": "n", "value": 1, "validity": {"duration": "1h"}}`)
			var tpl struct{ ID string }
			if err := json.Unmarshal([]byte(body), &tpl); err != nil || tpl.ID == "" {
				t.Fatalf("create template: %s (%v)", body, err)
			}
			_, body = s.call(t, http.MethodPost, "/v1/users/u1/coupons", `{"template_id": "`+tpl.ID+`"}`)
			var c struct{ ID string }
			if err := json.Unmarshal([]byte(body), &c); err != nil || c.ID == "" {
				t.Fatalf("claim: %s (%v)", body, err)
			}
			lock := "/v1/coupons/" + c.ID + "/lock"
			if status, body := s.call(t, http.MethodPost, lock, `{"order_id": "o1", "ttl": "2m1s"}`); status != http.StatusUnprocessableEntity || !strings.Contains(body, "ttl: at most 2m0s") {
				t.Fatalf("ttl above --max-lock-ttl: got %d %s, want 422 naming ttl and its maximum", status, body)
			}
			if status, body := s.call(t, http.MethodPost, lock, `{"order_id": "o1", "ttl": "2m"}`); status != http.StatusOK {
				t.Fatalf("ttl at --max-lock-ttl: got %d %s, want 200", status, body)
			}
		})
	}
}

// cutWithin reads conn until the server closes it and fails the test if
// that takes longer than bound. It returns what the server sent.
func cutWithin(t *testing.T, conn net.Conn, bound time.Duration, what string) string {
	t.Helper()
	conn.SetReadDeadline(time.Now().Add(bound))
	got, err := io.ReadAll(conn)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatalf("%s: the connection was still open after %s; got %q", what, bound, got)
	}
	return string(got)
}

// TestServeTimeouts runs lapse serve with short timeouts: a body that
// stalls and a keep-alive connection left idle are cut, eventually, while
// the server answers others; a bulk issuance streamed for longer than the
// read and write timeouts is not.
func TestServeTimeouts(t *testing.T) {
	s := startServe(t, "--read-timeout", "300ms", "--write-timeout", "500ms", "--idle-timeout", "300ms", "--issue-timeout", "1m")
	addr := strings.TrimPrefix(s.base, "http://")
	const bound = 20 * time.Second // generous: only "was cut" is asserted

	stalled, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	defer stalled.Close()
	fmt.Fprintf(stalled, "POST /v1/templates HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"name\":", addr)
	if status, _ := s.call(t, http.MethodGet, "/healthz", ""); status != http.StatusOK {
		t.Fatalf("healthz while a body stalls: got %d, want 200", status)
	}
	if got := cutWithin(t, stalled, bound, "a stalled body"); got != "" && !strings.Contains(got, "400 Bad Request") {
		t.Fatalf("a stalled body: got %q, want a 400 or nothing before the close", got)
	}

	idle, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	defer idle.Close()
	fmt.Fprintf(idle, "GET /healthz HTTP/1.1\r\nHost: lapse\r\n\r\n")
	if got := cutWithin(t, idle, bound, "an idle keep-alive connection"); !strings.HasPrefix(got, "HTTP/1.1 200 OK") {
		t.Fatalf("healthz then idle: got %q, want a 200 before the close", got)
	}

	_, body := s.call(t, http.MethodPost, "/v1/templates", `{"name": "n", "value": 1, "validity": {"duration": "1h"}}`)
	var tpl struct{ ID string }
	if err := json.Unmarshal([]byte(body), &tpl); err != nil || tpl.ID == "" {
		t.Fatalf("create template: %s (%v)", body, err)
	}
	pr, pw := io.Pipe()
	go func() {
		for i := range 4 {
			time.Sleep(200 * time.Millisecond) // 800ms in all: past both timeouts
			fmt.Fprintf(pw, "{\"user_id\": \"u%d\"}\n", i)
		}
		pw.Close()
	}()
	req, err := http.NewRequest(http.MethodPost, s.base+"/v1/templates/"+tpl.ID+"/issue", pr)
	if err != nil {
		t.Fatalf("new request: %v", err)
	}
	req.Header.Set("Content-Type", "application/x-ndjson")
	resp, err := (&http.Client{Timeout: bound}).Do(req)
	if err != nil {
		t.Fatalf("slow bulk issuance: %v", err)
	}
	defer resp.Body.Close()
	got, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(got), `"issued":4`) {
		t.Fatalf("slow bulk issuance: got %d %s, want 200 with 4 issued", resp.StatusCode, got)
	}
}

// TestServeHidesSinkSecrets: a webhook sink whose URL carries a password
// and a token, signed with a --sink-secret, on a closed port, fails; no
// secret shows in GET /v1/sinks or the log, which names the sink by its
// redacted URL, nor in the error of a --sink or --sink-secret refused at
// start.
func TestServeHidesSinkSecrets(t *testing.T) {
	const token, password = "tok-S3CR3T-42", "pw-S3CR3T-42"
	closed := outboxtest.FreeAddr(t)
	sink := "webhook+http://lapse:" + password + "@" + closed + "/hook?token=" + token + "#name=hook"
	key := strings.TrimPrefix(outboxtest.TestSecret, "whsec_")
	for _, args := range [][]string{{"--sink", sink + "&batch=0"}, {"--sink", sink, "--sink-secret", "whsec_S3CR3T"}, {"--sink", sink, "--sink-secret", "whsec_" + key[2:]}} {
		var out bytes.Buffer
		err := Run(context.Background(), append([]string{"serve"}, args...), &out, &out)
		if err == nil || strings.Contains(err.Error()+out.String(), "S3CR3T") || strings.Contains(err.Error()+out.String(), key[2:]) {
			t.Fatalf("serve %q: got %v, %q; want an error without its secrets", args, err, out.String())
		}
	}

	s := startServe(t, "--sink", sink, "--sink-secret", outboxtest.TestSecret)
	_, body := s.call(t, http.MethodPost, "/v1/templates", `{"name": "n", "value": 1, "validity": {"duration": "1h"}}`)
	var tpl struct{ ID string }
	if err := json.Unmarshal([]byte(body), &tpl); err != nil || tpl.ID == "" {
		t.Fatalf("create template: %s (%v)", body, err)
	}
	s.call(t, http.MethodPost, "/v1/users/u1/coupons", `{"template_id": "`+tpl.ID+`"}`)
	var sinks string
	for deadline := time.Now().Add(20 * time.Second); !strings.Contains(sinks, `"last_error":"`) || !strings.Contains(s.out.String(), "outbox: delivery failed"); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("GET /v1/sinks: got %s, want a last_error, and its failure logged:\n%s", sinks, s.out)
		}
		_, sinks = s.call(t, http.MethodGet, "/v1/sinks", "")
	}
	if strings.Contains(sinks, "S3CR3T") || strings.Contains(sinks, key) || !strings.Contains(sinks, "token=xxxxx") {
		t.Fatalf("GET /v1/sinks: got %s, want its error to show the URL redacted", sinks)
	}
	logs := s.out.String()
	if strings.Contains(logs, "S3CR3T") || strings.Contains(logs, key) {
		t.Fatalf("log shows a secret:\n%s", logs)
	}
	if !strings.Contains(logs, `"url":"http://lapse:xxxxx@`+closed+`/hook?token=xxxxx"`) {
		t.Fatalf("log: want the sink named by its redacted URL:\n%s", logs)
	}
}

// TestPaceKnob: lapse serve's pace shortens the batch first on SQLite,
// whose users wait behind it for the one writer, and rests longer first
// on PostgreSQL and MySQL.
func TestPaceKnob(t *testing.T) {
	for url, want := range map[string]engine.Knob{
		"lapse.db":                         engine.BatchFirst,
		"sqlite:/var/lib/lapse/lapse.db":   engine.BatchFirst,
		"postgres://127.0.0.1/lapse":       engine.ShareFirst,
		"postgresql://127.0.0.1/lapse":     engine.ShareFirst,
		"mysql://root@127.0.0.1:3306/test": engine.ShareFirst,
	} {
		if got := paceKnob(url); got != want {
			t.Errorf("paceKnob(%q) = %v, want %v", url, got, want)
		}
	}
}
