package httpapi

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lapsehq/lapse/credential"
	"github.com/lapsehq/lapse/outbox"
)

// withRelay adds a relay with one webhook sink, "hook", to the server. Its
// receiver refuses everything until accept is set; each event gets one
// attempt.
func withRelay(t *testing.T, accept *atomic.Bool) func(*Config) {
	return func(cfg *Config) {
		rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !accept.Load() {
				w.WriteHeader(http.StatusBadGateway)
				return
			}
			w.WriteHeader(http.StatusNoContent)
		}))
		t.Cleanup(rcv.Close)
		// The real store the server is given feeds the relay too.
		r, err := outbox.New(outbox.Config{
			Store: cfg.Store.(outbox.Store), Now: cfg.Now, Log: slog.New(slog.DiscardHandler), MaxAttempts: 1, Poll: 10 * time.Millisecond,
			Sinks: []outbox.Named{{Name: "hook", Type: "webhook", Sink: outbox.NewWebhook(outbox.WebhookConfig{URL: rcv.URL, Now: cfg.Now})}},
		})
		if err != nil {
			t.Fatalf("relay: %v", err)
		}
		if err := r.Start(context.Background()); err != nil {
			t.Fatalf("start relay: %v", err)
		}
		t.Cleanup(r.Stop)
		cfg.Relay = r
	}
}

type sinksPage struct {
	Sinks []sinkJSON `json:"sinks"`
}

// waitSink polls GET /v1/sinks until the first sink satisfies cond.
func (e *env) waitSink(cond func(sinkJSON) bool) sinkJSON {
	e.t.Helper()
	for range 500 {
		var p sinksPage
		e.ok(e.get("/v1/sinks"), http.StatusOK, &p)
		if len(p.Sinks) != 1 {
			e.t.Fatalf("sinks: got %+v, want one", p.Sinks)
		}
		if cond(p.Sinks[0]) {
			return p.Sinks[0]
		}
		time.Sleep(10 * time.Millisecond)
	}
	e.t.Fatalf("sink never reached the state wanted")
	return sinkJSON{}
}

func TestSinksNone(t *testing.T) {
	e := setup(t)
	res := e.get("/v1/sinks")
	if res.status != http.StatusOK || string(res.body) != `{"sinks":[]}` {
		t.Fatalf("no relay: got %d %s, want 200 {\"sinks\":[]}", res.status, res.body)
	}
	e.problem(e.post("/v1/sinks/hook/replay", ""), http.StatusNotFound, "not-found")
}

func TestSinksAndReplay(t *testing.T) {
	var accept atomic.Bool
	e := setup(t, withRelay(t, &accept))
	tpl := e.template(hourTemplate)
	e.claim("u1", tpl)
	e.claim("u2", tpl)
	s := e.waitSink(func(s sinkJSON) bool { return s.DeadLetters == 2 && s.Lag == 0 })
	if s.Name != "hook" || s.Type != "webhook" || s.Position == "0" || s.Failures != 2 || s.Queued != 0 || s.LastError == nil {
		t.Fatalf("sink with two dead letters: got %+v", s)
	}

	e.problem(e.post("/v1/sinks/nope/replay", ""), http.StatusNotFound, "not-found")
	e.problem(e.post("/v1/sinks/hook/replay", `{"all": true}`), http.StatusBadRequest, "malformed")
	e.problem(e.post("/v1/sinks/hook/replay", `[]`), http.StatusBadRequest, "malformed")
	if got := e.waitSink(func(sinkJSON) bool { return true }); got.DeadLetters != 2 || got.Queued != 0 {
		t.Fatalf("after refused replays: got %+v, want the two letters untouched", got)
	}

	accept.Store(true)
	first := e.post("/v1/sinks/hook/replay", "", "Idempotency-Key", "r1")
	var v replayJSON
	e.ok(first, http.StatusAccepted, &v)
	if v.Name != "hook" || v.Queued != 2 {
		t.Fatalf("replay: got %+v, want hook with 2 queued", v)
	}
	s = e.waitSink(func(s sinkJSON) bool { return s.DeadLetters == 0 })
	if s.LastError != nil || s.Lag != 0 {
		t.Fatalf("after the replay: got %+v, want no error and no lag", s)
	}
	again := e.post("/v1/sinks/hook/replay", "", "Idempotency-Key", "r1")
	if again.status != http.StatusAccepted || string(again.body) != string(first.body) {
		t.Fatalf("retried replay: got %d %s, want the first answer %s", again.status, again.body, first.body)
	}
	e.problem(e.post("/v1/sinks/hook/replay", "{}", "Idempotency-Key", "r1"), http.StatusConflict, "idempotency-conflict")
	e.ok(e.post("/v1/sinks/hook/replay", "{}"), http.StatusAccepted, &v)
	if v.Queued != 0 {
		t.Fatalf("replay with nothing dead: got %d queued, want 0", v.Queued)
	}
}

// TestReplayLogsActor: a replay, an operation that leaves no event, logs
// the name of the token that ran it, and not the token.
func TestReplayLogsActor(t *testing.T) {
	var accept atomic.Bool
	e := setup(t, withRelay(t, &accept))
	admin := e.createToken("ops", credential.Admin)
	e.ok(e.post("/v1/sinks/hook/replay", "", as(admin)...), http.StatusAccepted, &replayJSON{})
	logs := e.logs.String()
	if !strings.Contains(logs, `dead letters queued for redelivery" sink=hook queued=0 actor=ops`) || strings.Contains(logs, admin) {
		t.Fatalf("log: %s", logs)
	}
}
