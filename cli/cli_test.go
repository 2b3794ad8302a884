package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lapsehq/lapse/outbox/outboxtest"
)

func TestRunUsage(t *testing.T) {
	var out bytes.Buffer
	if err := Run(context.Background(), nil, &out, &out); !errors.Is(err, ErrUsage) {
		t.Fatalf("no command: got %v, want ErrUsage", err)
	}
	if !strings.Contains(out.String(), "serve") {
		t.Fatalf("usage: got %q, want it to list serve", out.String())
	}
	if err := Run(context.Background(), []string{"frobnicate"}, &out, &out); !errors.Is(err, ErrUsage) {
		t.Fatalf("unknown command: got %v, want ErrUsage", err)
	}
	if err := Run(context.Background(), []string{"help"}, &out, &out); err != nil {
		t.Fatalf("help: got %v, want nil", err)
	}
}

func TestServeRejectsBadSettings(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--log-format", "xml"}, "--log-format"},
		{[]string{"--store", "oracle://x"}, "unsupported store"},
		{[]string{"--payment-check-url", "ftp://x", "--store", "sqlite:" + t.TempDir() + "/a.db"}, "payment check URL"},
		{[]string{"--nope"}, "flag provided but not defined"},
		{[]string{"--quiet-hours", "late"}, "quiet hours"},
		{[]string{"--reminders", "24h,-1h"}, "lead time"},
		{[]string{"--reminder-window", "-1h"}, "reminder window"},
		{[]string{"--daily-cap", "-2"}, "daily cap"},
		{[]string{"--lease-ttl", "100ms"}, "--lease-ttl"},
		{[]string{"--max-clock-skew", "0s"}, "--max-clock-skew"},
		{[]string{"--loader-interval", "-1s"}, "--loader-interval"},
		{[]string{"--operation-batch", "0"}, "--operation-batch"},
		{[]string{"--operation-share", "-0.1"}, "--operation-share"},
		{[]string{"--operation-share", "1.5"}, "--operation-share"},
		{[]string{"--operation-share", "NaN"}, "--operation-share"},
		{[]string{"--storm-user-budget", "1"}, "--storm-user-budget"},
		{[]string{"--storm-user-budget", "-2"}, "--storm-user-budget"},
		{[]string{"--storm-user-budget", "NaN"}, "--storm-user-budget"},
		{[]string{"--reconcile-interval", "-1s"}, "--reconcile-interval"},
		{[]string{"--idempotency-ttl", "0s"}, "--idempotency-ttl"},
		{[]string{"--archive-after", "-1h"}, "--archive-after"},
		{[]string{"--archive-interval", "0s"}, "--archive-interval"},
		{[]string{"--max-lock-ttl", "0s"}, "--max-lock-ttl"},
		{[]string{"--read-timeout", "0s"}, "--read-timeout"},
		{[]string{"--write-timeout", "-1s"}, "--write-timeout"},
		{[]string{"--idle-timeout", "0s"}, "--idle-timeout"},
		{[]string{"--issue-timeout", "0s"}, "--issue-timeout"},
		{[]string{"--redis", "redis://127.0.0.1:6379/0", "--store", "sqlite:" + t.TempDir() + "/a.db"}, "--redis"},
		{[]string{"--amqp-delay", "amqp://127.0.0.1:5672/", "--store", "sqlite:" + t.TempDir() + "/a.db"}, "--amqp-delay"},
		{[]string{"--amqp-delay", "amqp://127.0.0.1:5672/", "--redis", "redis://127.0.0.1:6379/0", "--store", "postgres://x/y"}, "one delay queue"},
	}
	for _, c := range cases {
		var out bytes.Buffer
		err := Run(context.Background(), append([]string{"serve"}, c.args...), &out, &out)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("serve %v: got %v, want an error about %q", c.args, err, c.want)
		}
	}
}

func TestFlagsFromEnvironment(t *testing.T) {
	t.Setenv("LAPSE_LISTEN", "127.0.0.1:9999")
	t.Setenv("LAPSE_SWEEP_INTERVAL", "5s")
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	listen := fs.String("listen", "127.0.0.1:8080", "address (LAPSE_LISTEN)")
	store := fs.String("store", "sqlite:lapse.db", "store URL (LAPSE_STORE)")
	sweep := fs.Duration("sweep-interval", time.Minute, "how often (LAPSE_SWEEP_INTERVAL)")
	if err := parse(fs, []string{"--store", "sqlite:given.db"}, io.Discard); err != nil {
		t.Fatalf("parse: %v", err)
	}
	if *listen != "127.0.0.1:9999" || *sweep != 5*time.Second {
		t.Fatalf("from the environment: got listen %q sweep %s", *listen, *sweep)
	}
	if *store != "sqlite:given.db" {
		t.Fatalf("a flag given wins over the environment: got %q", *store)
	}
	t.Setenv("LAPSE_SWEEP_INTERVAL", "soon")
	fs2 := flag.NewFlagSet("y", flag.ContinueOnError)
	fs2.Duration("sweep-interval", time.Minute, "how often (LAPSE_SWEEP_INTERVAL)")
	if err := parse(fs2, nil, io.Discard); err == nil {
		t.Fatalf("bad LAPSE_SWEEP_INTERVAL: got nil error")
	}
}

// served is a `lapse serve` run in this process on a free port.
type served struct {
	base   string // http://host:port
	out    *outboxtest.LogBuffer
	cancel context.CancelFunc
	done   chan error
}

// startServe runs `lapse serve` with args on a free port and a new SQLite
// store, and waits until it answers. Its log, written to no terminal, is
// JSON unless args or LAPSE_LOG_FORMAT say otherwise. Cleanup stops it. A
// --listen in args is reached on 127.0.0.1 at its port.
func startServe(t *testing.T, args ...string) *served {
	t.Helper()
	addr := outboxtest.FreeAddr(t)
	if i := slices.Index(args, "--listen"); i >= 0 && i+1 < len(args) {
		_, port, _ := net.SplitHostPort(args[i+1])
		addr = "127.0.0.1:" + port
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &served{base: "http://" + addr, out: &outboxtest.LogBuffer{}, cancel: cancel, done: make(chan error, 1)}
	args = append([]string{"serve", "--listen", addr, "--store", "sqlite:" + t.TempDir() + "/lapse.db"}, args...)
	go func() { s.done <- Run(ctx, args, s.out, s.out) }()
	t.Cleanup(func() {
		cancel()
		<-s.done
	})
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if resp, err := http.Get(s.base + "/healthz"); err == nil {
			resp.Body.Close()
			return s
		}
		select {
		case err := <-s.done:
			t.Fatalf("serve %v: %v\n%s", args, err, s.out)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve did not come up on %s", addr)
		}
	}
}

// call sends body (none if empty), with header's key, value pairs, and
// returns the status and the answer. A change says it is JSON, as lapse
// in open mode asks, unless header says otherwise.
func (s *served) call(t *testing.T, method, path, body string, header ...string) (int, string) {
	t.Helper()
	res := s.send(t, method, path, body, header...)
	return res.status, res.body
}

// answer is what the server answered, with its header.
type answer struct {
	status int
	header http.Header
	body   string
}

// send is call, with the answer's header.
func (s *served) send(t *testing.T, method, path, body string, header ...string) answer {
	t.Helper()
	req, err := http.NewRequest(method, s.base+path, strings.NewReader(body))
	if err != nil {
		t.Fatalf("new request: %v", err)
	}
	if method != http.MethodGet {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: read answer: %v", method, path, err)
	}
	return answer{resp.StatusCode, resp.Header, string(b)}
}

// TestServeStopsOnCancel serves on a free port until its context is
// cancelled, once it serves, then must return nil; its log, written to
// no terminal, is JSON by default.
func TestServeStopsOnCancel(t *testing.T) {
	s := startServe(t)
	s.cancel()
	select {
	case err := <-s.done:
		s.done <- err // for the cleanup
		if err != nil {
			t.Fatalf("serve after cancel: got %v, want nil", err)
		}
		lines := strings.Split(strings.TrimSpace(s.out.String()), "\n")
		for _, l := range lines {
			var rec struct{ Msg string }
			if err := json.Unmarshal([]byte(l), &rec); err != nil || !strings.HasPrefix(rec.Msg, "lapse:") {
				t.Fatalf("the default log format off a terminal: line %q is not a JSON record of lapse (%v)", l, err)
			}
		}
		if !strings.Contains(s.out.String(), "lapse: stopped") {
			t.Fatalf("log: got %q, want it to end with lapse: stopped", s.out.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("serve did not stop after cancel")
	}
}
