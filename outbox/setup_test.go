package outbox_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/outbox"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/store/sqlite"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// t0 is when the test histories happen.
var t0 = time.Date(2026, 11, 11, 0, 0, 0, 0, time.UTC)

// openStore opens a fresh SQLite store, closed when t ends. notify, if
// set, hears of every commit that wrote events.
func openStore(t testing.TB, notify func()) *sqlite.Store {
	t.Helper()
	opts := sqlite.Options{}
	if notify != nil {
		opts.OnEvents = func([]string) { notify() }
	}
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "lapse.db"), opts)
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// history writes, for each of n coupons, a claim then rounds of lock and
// unlock, the coupons taking turns so that subjects interleave in the
// feed: n*(1+2*rounds) events, all at t0 or later.
func history(t testing.TB, st store.Store, n, rounds int) {
	t.Helper()
	ctx := context.Background()
	tp, err := st.CreateTemplate(ctx, store.CreateTemplateParams{
		Template: coupon.Template{Name: "t", Value: 100, StartsAt: t0.Add(-time.Hour), Duration: 24 * time.Hour}, Now: t0.Add(-time.Hour),
	})
	if err != nil {
		t.Fatalf("create template: %v", err)
	}
	ids := make([]string, n)
	for i := range n {
		c, err := st.Claim(ctx, store.ClaimParams{TemplateID: tp.ID, UserID: fmt.Sprintf("u%d", i), Now: t0})
		if err != nil {
			t.Fatalf("claim: %v", err)
		}
		ids[i] = c.ID
	}
	for r := range rounds {
		now := t0.Add(time.Duration(r+1) * time.Second)
		for _, act := range []coupon.Action{coupon.Lock, coupon.Unlock} {
			for _, id := range ids {
				p := store.TransitionParams{CouponID: id, Action: act, OrderID: fmt.Sprintf("o%d", r), LockTTL: time.Hour, Now: now}
				if _, err := st.Transition(ctx, p); err != nil {
					t.Fatalf("%s %s: %v", act, id, err)
				}
			}
		}
	}
}

// feed reads the whole outbox.
func feed(t testing.TB, st store.Store) []store.Event {
	t.Helper()
	var out []store.Event
	after := int64(0)
	for {
		page, err := st.Events(context.Background(), store.EventsParams{After: after, Limit: 1000})
		if err != nil {
			t.Fatalf("read feed: %v", err)
		}
		if len(page) == 0 {
			return out
		}
		out = append(out, page...)
		after = page[len(page)-1].Seq
	}
}

// relayConfig is a relay over st with fast retries, for tests.
func relayConfig(st store.Store, sinks ...outbox.Named) outbox.Config {
	return outbox.Config{
		Store: st, Sinks: sinks, Now: func() time.Time { return time.Now().UTC().Truncate(time.Millisecond) },
		Log: slog.New(slog.DiscardHandler), BatchSize: 50, MaxAttempts: 1000,
		BackoffBase: 10 * time.Millisecond, BackoffMax: 100 * time.Millisecond, Poll: 20 * time.Millisecond,
	}
}

// startRelay starts a relay for cfg, stopped when t ends.
func startRelay(t testing.TB, cfg outbox.Config) *outbox.Relay {
	t.Helper()
	r, err := outbox.New(cfg)
	if err != nil {
		t.Fatalf("new relay: %v", err)
	}
	if err := r.Start(context.Background()); err != nil {
		t.Fatalf("start relay: %v", err)
	}
	t.Cleanup(r.Stop)
	return r
}

// received is one CloudEvent as a receiver got it.
type received struct {
	SpecVersion     string          `json:"specversion"`
	ID              string          `json:"id"`
	Source          string          `json:"source"`
	Type            string          `json:"type"`
	Subject         string          `json:"subject"`
	Time            string          `json:"time"`
	DataContentType string          `json:"datacontenttype"`
	Data            json.RawMessage `json:"data"`
}

// receiver is a webhook endpoint that records the events of every request
// it answers 2xx, in arrival order. answer decides, per request (counted
// from 1), how long to take and what to answer; nil answers 204 at once.
type receiver struct {
	t      testing.TB
	srv    *httptest.Server
	secret []byte

	mu       sync.Mutex
	answer   func(n int, evs []received) (status int, delay time.Duration)
	requests int
	got      []received
}

func newReceiver(t testing.TB, secret []byte) *receiver {
	t.Helper()
	rc := &receiver{t: t, secret: secret}
	rc.srv = httptest.NewServer(http.HandlerFunc(rc.serve))
	t.Cleanup(rc.srv.Close)
	return rc
}

// sink is a webhook sink posting to the receiver.
func (rc *receiver) sink(name string, batch int) outbox.Named {
	return outbox.Named{Name: name, Type: "webhook", Sink: outbox.NewWebhook(outbox.WebhookConfig{
		URL: rc.srv.URL + "/hook", Batch: batch, Secret: rc.secret, Now: time.Now,
	})}
}

func (rc *receiver) setAnswer(f func(n int, evs []received) (int, time.Duration)) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.answer = f
}

func (rc *receiver) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return
	}
	evs, err := rc.decode(r, body)
	if err != nil {
		rc.t.Errorf("receiver: %v", err)
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	rc.mu.Lock()
	rc.requests++
	n, answer := rc.requests, rc.answer
	rc.mu.Unlock()
	status, delay := http.StatusNoContent, time.Duration(0)
	if answer != nil {
		status, delay = answer(n, evs)
	}
	time.Sleep(delay) // even if the client gave up: what arrived, arrived
	if status/100 == 2 {
		rc.mu.Lock()
		rc.got = append(rc.got, evs...)
		rc.mu.Unlock()
	}
	w.WriteHeader(status)
}

// decode checks a request's content type and signature and returns its
// events.
func (rc *receiver) decode(r *http.Request, body []byte) ([]received, error) {
	if r.Method != http.MethodPost || r.URL.Path != "/hook" {
		return nil, fmt.Errorf("got %s %s, want POST /hook", r.Method, r.URL.Path)
	}
	if len(rc.secret) > 0 {
		sig := r.Header.Get(outbox.SignatureHeader)
		ts, _, _ := strings.Cut(strings.TrimPrefix(sig, "t="), ",")
		var unix int64
		fmt.Sscan(ts, &unix)
		if want := outbox.Sign(rc.secret, time.Unix(unix, 0), body); sig != want || unix == 0 {
			return nil, fmt.Errorf("signature: got %q, want %q", sig, want)
		}
	}
	ctype, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	switch ctype {
	case outbox.ContentType:
		var e received
		err := json.Unmarshal(body, &e)
		return []received{e}, err
	case outbox.BatchContentType:
		var evs []received
		err := json.Unmarshal(body, &evs)
		return evs, err
	}
	return nil, fmt.Errorf("content type %q", ctype)
}

// requestCount returns how many requests the receiver answered.
func (rc *receiver) requestCount() int {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return rc.requests
}

// events returns what the receiver accepted so far.
func (rc *receiver) events() []received {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return slices.Clone(rc.got)
}

// distinct counts the distinct event IDs accepted so far.
func distinct(got []received) int {
	ids := map[string]bool{}
	for _, e := range got {
		ids[e.ID] = true
	}
	return len(ids)
}

// waitFor polls cond every 10ms until it holds, failing t after timeout.
func waitFor(t testing.TB, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, timeout)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitAll waits until the receiver holds every event of want.
func (rc *receiver) waitAll(t testing.TB, want []store.Event, timeout time.Duration) []received {
	t.Helper()
	waitFor(t, timeout, fmt.Sprintf("receiver holds %d events", len(want)), func() bool { return distinct(rc.events()) >= len(want) })
	return rc.events()
}

// checkDelivery fails unless got holds every event of want and nothing
// else, each copy of an ID equal to the first, and, taking each ID's first
// arrival, every subject's events in feed order. It returns how many
// duplicates got holds.
func checkDelivery(t testing.TB, want []store.Event, got []received) int {
	t.Helper()
	byID := map[string]store.Event{}
	wantOrder := map[string][]string{}
	for _, e := range want {
		byID[e.ID] = e
		wantOrder[e.Subject] = append(wantOrder[e.Subject], e.ID)
	}
	first := map[string]received{}
	gotOrder := map[string][]string{}
	dups := 0
	for _, g := range got {
		e, ok := byID[g.ID]
		if !ok {
			t.Fatalf("received event %s that is not in the feed", g.ID)
		}
		if f, seen := first[g.ID]; seen {
			if !sameReceived(f, g) {
				t.Fatalf("duplicate of %s differs: %+v then %+v", g.ID, f, g)
			}
			dups++
			continue
		}
		first[g.ID] = g
		wantCE(t, e, g)
		gotOrder[g.Subject] = append(gotOrder[g.Subject], g.ID)
	}
	if len(first) != len(want) {
		t.Fatalf("distinct events received: got %d, want %d", len(first), len(want))
	}
	for subject, ids := range wantOrder {
		if !slices.Equal(gotOrder[subject], ids) {
			t.Fatalf("events of %s: got them in order %v, want %v", subject, gotOrder[subject], ids)
		}
	}
	return dups
}

func sameReceived(a, b received) bool {
	return a.ID == b.ID && a.Type == b.Type && a.Subject == b.Subject && a.Time == b.Time && string(a.Data) == string(b.Data)
}

// wantCE fails unless g is e as a CloudEvent.
func wantCE(t testing.TB, e store.Event, g received) {
	t.Helper()
	if g.SpecVersion != "1.0" || g.Source != outbox.Source || g.Type != e.Type || g.Subject != e.Subject ||
		g.Time != e.Time.UTC().Format(store.TimeFormat) || g.DataContentType != "application/json" || string(g.Data) != string(e.Data) {
		t.Fatalf("event %s: got %+v, want the CloudEvent of %+v", e.ID, g, e)
	}
}
