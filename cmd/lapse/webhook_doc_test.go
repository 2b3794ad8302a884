package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/lapsehq/lapse/outbox/outboxtest"
)

// receiveWebhook answers lapse's webhook requests: it verifies a
// request's signature over its raw body, then hands each of its
// CloudEvents to handle. An error answer makes lapse send the request
// again later, so handle must deduplicate events by their id.
func receiveWebhook(secret string, handle func(event json.RawMessage) error) (http.HandlerFunc, error) {
	wh, err := standardwebhooks.NewWebhook(secret) // whsec_…, lapse's --sink-secret
	if err != nil {
		return nil, err
	}
	return func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if err := wh.Verify(body, r.Header); err != nil { // a bad signature, or a timestamp 5 minutes off
			http.Error(w, "bad signature", http.StatusUnauthorized)
			return
		}
		events := []json.RawMessage{body}
		if r.Header.Get("Content-Type") == "application/cloudevents-batch+json" { // #batch=N
			if err := json.Unmarshal(body, &events); err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
		}
		for _, e := range events {
			if err := handle(e); err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
		}
	}, nil
}

// TestEventsWebhookReceiver checks that docs/events.md's Go receiver is
// receiveWebhook, then runs it as two webhook sinks of lapse serve, one
// event a request and batches of 10: each gets every claim and expiry of
// the feed, and a request lapse signed, replayed with its body changed by
// one byte or under another secret, is refused 401 where the original
// is taken.
func TestEventsWebhookReceiver(t *testing.T) {
	decl, _ := goFunc(t, "webhook_doc_test.go", "receiveWebhook")
	const imp = `import standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"` + "\n\n"
	if doc := docBlock(t, "docs/events.md", "Delivery to sinks", "go"); doc != imp+decl {
		t.Fatalf("docs/events.md's Go receiver:\n%s\nis not receiveWebhook, with its import:\n%s", doc, imp+decl)
	}

	type request struct {
		header http.Header
		body   []byte
	}
	var (
		mu       sync.Mutex
		got      = map[string]map[string]string{} // sink → event id → type
		lastSent request
	)
	sink := func(name string) string {
		got[name] = map[string]string{}
		h, err := receiveWebhook(outboxtest.TestSecret, func(event json.RawMessage) error {
			var e struct{ ID, Type string }
			if err := json.Unmarshal(event, &e); err != nil {
				return err
			}
			mu.Lock()
			got[name][e.ID] = e.Type
			mu.Unlock()
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			mu.Lock()
			lastSent = request{r.Header.Clone(), body}
			mu.Unlock()
			r.Body = io.NopCloser(bytes.NewReader(body))
			h(w, r)
		}))
		t.Cleanup(srv.Close)
		return "webhook+" + srv.URL + "#name=" + name
	}
	s := start(t, sqliteBackend.store(t), "--sink", sink("one"), "--sink", sink("batched")+"&batch=10",
		"--sink-secret", outboxtest.TestSecret)
	const n = 30
	_, cs := s.seed(t, n, time.Now().Add(2*time.Second))
	waitExpired(t, s, len(cs))
	s.waitSinksCaughtUp(t, 2)

	want := map[string]string{}
	for _, typ := range []string{"coupon.claimed", "coupon.expired"} {
		for _, e := range s.feed(t, typ) {
			want[e.ID] = e.Type
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for name, events := range got {
		if len(events) != len(want) {
			t.Errorf("%s: got %d events, want the feed's %d", name, len(events), len(want))
		}
		for id, typ := range want {
			if events[id] != typ {
				t.Errorf("%s: event %s: got type %q, want %q", name, id, events[id], typ)
			}
		}
	}

	if len(lastSent.body) == 0 {
		t.Fatal("lapse sent no request")
	}
	ignore := func(json.RawMessage) error { return nil }
	replay := func(secret string, body []byte) int {
		h, err := receiveWebhook(secret, ignore)
		if err != nil {
			t.Fatal(err)
		}
		r := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
		r.Header = lastSent.header.Clone()
		w := httptest.NewRecorder()
		h(w, r)
		return w.Code
	}
	tampered := bytes.Clone(lastSent.body)
	tampered[len(tampered)/2] ^= 1
	for _, c := range []struct {
		what   string
		secret string
		body   []byte
		want   int
	}{
		{"as lapse sent it", outboxtest.TestSecret, lastSent.body, http.StatusOK},
		{"its body changed", outboxtest.TestSecret, tampered, http.StatusUnauthorized},
		{"under another secret", "whsec_" + strings.Repeat("A", 32), lastSent.body, http.StatusUnauthorized},
	} {
		if code := replay(c.secret, c.body); code != c.want {
			t.Errorf("a request lapse signed, %s: answered %d, want %d", c.what, code, c.want)
		}
	}
}
