package outboxtest

import (
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lapsehq/lapse/outbox"
)

// Event is one CloudEvent as a receiver got it.
type Event = outbox.CloudEvent

// Decode decodes one CloudEvent as a sink wrote it.
func Decode(t testing.TB, b []byte) Event {
	t.Helper()
	var e Event
	if err := json.Unmarshal(b, &e); err != nil {
		t.Fatalf("decode CloudEvent %q: %v", b, err)
	}
	return e
}

// Answer decides how a Receiver answers its n-th request (counted from
// 1), carrying evs: the status, and how long to take first.
type Answer func(n int, evs []Event) (status int, delay time.Duration)

// Receiver is a webhook endpoint at URL that checks each request's
// content type and, with a secret, its signature, and records the events
// of every request it answers 2xx, in arrival order.
type Receiver struct {
	// URL is where to POST: the server's address and /hook.
	URL    string
	Server *httptest.Server
	// Secret is the signing key the receiver expects, if any.
	Secret []byte
	t      testing.TB

	mu       sync.Mutex
	answer   Answer
	requests int
	got      []Event
}

// NewReceiver starts a Receiver that lives until t ends.
func NewReceiver(t testing.TB, secret []byte) *Receiver {
	t.Helper()
	rc := &Receiver{t: t, Secret: secret}
	rc.Server = httptest.NewServer(rc)
	rc.URL = rc.Server.URL + "/hook"
	t.Cleanup(rc.Server.Close)
	return rc
}

// SetAnswer sets how the receiver answers from now on; nil answers 204 at
// once.
func (rc *Receiver) SetAnswer(a Answer) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.answer = a
}

// ServeHTTP records a request's events if it answers it 2xx.
func (rc *Receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
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
func (rc *Receiver) decode(r *http.Request, body []byte) ([]Event, error) {
	if r.Method != http.MethodPost || r.URL.Path != "/hook" {
		return nil, fmt.Errorf("got %s %s, want POST /hook", r.Method, r.URL.Path)
	}
	if len(rc.Secret) > 0 {
		sig := r.Header.Get(outbox.SignatureHeader)
		ts, _, _ := strings.Cut(strings.TrimPrefix(sig, "t="), ",")
		var unix int64
		fmt.Sscan(ts, &unix)
		if want := outbox.Sign(rc.Secret, time.Unix(unix, 0), body); sig != want || unix == 0 {
			return nil, fmt.Errorf("signature: got %q, want %q", sig, want)
		}
	}
	ctype, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	switch ctype {
	case outbox.ContentType:
		var e Event
		err := json.Unmarshal(body, &e)
		return []Event{e}, err
	case outbox.BatchContentType:
		var evs []Event
		err := json.Unmarshal(body, &evs)
		return evs, err
	}
	return nil, fmt.Errorf("content type %q", ctype)
}

// Requests returns how many requests the receiver answered.
func (rc *Receiver) Requests() int {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return rc.requests
}

// Events returns what the receiver accepted so far.
func (rc *Receiver) Events() []Event {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return slices.Clone(rc.got)
}

// Distinct counts the distinct event IDs of evs.
func Distinct(evs []Event) int {
	ids := map[string]bool{}
	for _, e := range evs {
		ids[e.ID] = true
	}
	return len(ids)
}

// WaitDistinct polls until the receiver holds n distinct events, failing
// t after timeout, and returns what it holds.
func (rc *Receiver) WaitDistinct(t testing.TB, n int, timeout time.Duration) []Event {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		got := rc.Events()
		if Distinct(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("receiver: %d distinct events after %s, want %d", Distinct(got), timeout, n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
