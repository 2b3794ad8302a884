package outbox_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/lapsehq/lapse/outbox"
	"github.com/lapsehq/lapse/outbox/outboxtest"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

func TestSinkRedacted(t *testing.T) {
	cases := []struct{ raw, want string }{
		{"webhook+https://example.com/hook?token=s3cr3t-token&v=1#name=billing", "https://example.com/hook?token=xxxxx&v=xxxxx"},
		{"webhook+https://u:s3cr3t@example.com/hook", "https://u:xxxxx@example.com/hook"},
		{"webhook+http://127.0.0.1:9000/", "http://127.0.0.1:9000/"},
		{"rediss://u:s3cr3t@redis.internal/2?stream=s&dial_timeout=3s", "rediss://u:xxxxx@redis.internal/2?dial_timeout=xxxxx"},
		{"amqp://guest:s3cr3t@127.0.0.1:5672/?exchange=lapse", "amqp://guest:xxxxx@127.0.0.1:5672/"},
	}
	for _, c := range cases {
		s, err := outbox.ParseSink(c.raw)
		if err != nil {
			t.Fatalf("ParseSink(%q): %v", c.raw, err)
		}
		if got := s.Redacted(); got != c.want {
			t.Fatalf("Redacted(%q): got %q, want %q", c.raw, got, c.want)
		}
	}
	for _, raw := range []string{"webhook+https://example.com/x?token=s3cr3t-token#batch=0", "redis://h/0?stream=s&password=s3cr3t-token&colour=red"} {
		if _, err := outbox.ParseSink(raw); err == nil || strings.Contains(err.Error(), "s3cr3t") || !strings.Contains(err.Error(), "xxxxx") {
			t.Fatalf("ParseSink(%q): got %v, want an error showing the URL without its query values", raw, err)
		}
	}
}

// TestSinkErrorsRedacted: webhooks whose URLs carry a password and a
// token, signed with a secret, fail, one on a closed port, one answering
// 500 with the token and the secret echoed; neither the token, the
// password nor the secret (whole or its base64) shows in the sinks'
// status, the relay's logs or the dead letters, where their URLs show
// redacted.
func TestSinkErrorsRedacted(t *testing.T) {
	const token, password = "tok-S3CR3T-42", "pw-S3CR3T-42"
	key := strings.TrimPrefix(outboxtest.TestSecret, "whsec_")
	closed := outboxtest.FreeAddr(t)
	echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "bad token "+r.URL.Query().Get("token")+", want secret "+outboxtest.TestSecret+" or key "+key, http.StatusInternalServerError)
	}))
	defer echo.Close()
	var sinks []outbox.Named
	for name, base := range map[string]string{"down": "http://" + closed, "echo": echo.URL} {
		raw := fmt.Sprintf("webhook+http://lapse:%s@%s/hook?token=%s#name=%s", password, strings.TrimPrefix(base, "http://"), token, name)
		spec, err := outbox.ParseSink(raw)
		if err != nil {
			t.Fatalf("ParseSink(%q): %v", raw, err)
		}
		secret, err := outbox.ParseWebhookSecret(outboxtest.TestSecret)
		if err != nil {
			t.Fatalf("ParseWebhookSecret: %v", err)
		}
		n, err := spec.Open(secret, time.Now)
		if err != nil {
			t.Fatalf("Open(%q): %v", raw, err)
		}
		sinks = append(sinks, n)
	}
	st := openStore(t, nil)
	history(t, st, 2, 1)
	logs := &outboxtest.LogBuffer{}
	cfg := relayConfig(st, sinks...)
	cfg.Log = slog.New(slog.NewTextHandler(logs, nil))
	cfg.MaxAttempts = 2 // dead letters keep the error too
	r := startRelay(t, cfg)
	for _, name := range []string{"down", "echo"} {
		waitFor(t, 10*time.Second, name+" dead letters", func() bool { return sinkStatus(t, r, name).DeadLetters > 0 })
		if got := sinkStatus(t, r, name).LastError; !strings.Contains(got, "token=xxxxx") && !strings.Contains(got, "bad token xxxxx, want secret xxxxx or key xxxxx") {
			t.Fatalf("%s: last error %q, want it to show the token and the secret as xxxxx", name, got)
		}
	}
	r.Stop()
	letters := deadLetterErrors(t, st)
	for what, text := range map[string]string{"status": fmt.Sprint(sinkStatus(t, r, "down"), sinkStatus(t, r, "echo")), "logs": logs.String(), "dead letters": letters} {
		if strings.Contains(text, token) || strings.Contains(text, password) || strings.Contains(text, key) {
			t.Fatalf("%s show a secret:\n%s", what, text)
		}
	}
	if !strings.Contains(logs.String(), "http://lapse:xxxxx@"+closed+"/hook?token=xxxxx") {
		t.Fatalf("logs: want the closed port's URL redacted in them:\n%s", logs)
	}
}

// deadLetterErrors returns the errors stored with the dead letters of the
// sinks down and echo.
func deadLetterErrors(t *testing.T, st store.Store) string {
	t.Helper()
	var errs []string
	for _, sink := range []string{"down", "echo"} {
		ls, err := st.DeadLetters(context.Background(), storetype.DeadLettersParams{Sink: sink, Limit: 100})
		if err != nil {
			t.Fatalf("dead letters of %s: %v", sink, err)
		}
		for _, l := range ls {
			errs = append(errs, l.Error)
		}
	}
	if len(errs) == 0 {
		t.Fatalf("no dead letter stored")
	}
	return strings.Join(errs, "\n")
}
