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

// FailFirst answers 500 to the first k requests, then 200.
func FailFirst(k int) Answer {
	return func(n int, _ []Event) (int, time.Duration) {
		if n <= k {
			return http.StatusInternalServerError, 0
		}
		return http.StatusOK, 0
	}
}

// Receiver is a webhook endpoint at URL that checks each request's
// content type and Standard Webhooks headers (see verify), and that a
// webhook-id always names the same events: an event's own ID when it is
// alone, and the same ID whenever the same events are sent again. It
// records the events of every request it answers 2xx, in arrival order.
type Receiver struct {
	// URL is where to POST: the server's address and /hook.
	URL    string
	Server *httptest.Server
	// Secret is the --sink-secret the receiver expects requests signed
	// with, "" for none.
	Secret string
	t      testing.TB

	mu       sync.Mutex
	answer   Answer
	requests int
	got      []Event
	ids      []string          // the webhook-id of each request
	eventsOf map[string]string // webhook-id → its events' IDs
	idOf     map[string]string // events' IDs → their webhook-id
}

// NewReceiver starts a Receiver that lives until t ends.
func NewReceiver(t testing.TB, secret string) *Receiver {
	t.Helper()
	rc := &Receiver{t: t, Secret: secret, eventsOf: map[string]string{}, idOf: map[string]string{}}
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
	if err == nil {
		err = verify(rc.Secret, r.Header, body)
	}
	if err == nil {
		err = rc.checkID(r.Header.Get(outbox.HeaderWebhookID), evs)
	}
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

// decode checks a request's method, path and content type and returns
// its events.
func (rc *Receiver) decode(r *http.Request, body []byte) ([]Event, error) {
	if r.Method != http.MethodPost || r.URL.Path != "/hook" {
		return nil, fmt.Errorf("got %s %s, want POST /hook", r.Method, r.URL.Path)
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

// checkID checks that id, the webhook-id of a request carrying evs, is
// the event's ID if it is alone with a plain ID, names no other events
// than it did before, and is what the same events were sent under
// before; and records it.
func (rc *Receiver) checkID(id string, evs []Event) error {
	ids := make([]string, len(evs))
	for i, e := range evs {
		ids[i] = e.ID
	}
	key := strings.Join(ids, "\n")
	if len(evs) == 1 && plainID.MatchString(evs[0].ID) && id != evs[0].ID {
		return fmt.Errorf("webhook-id %q of event %s alone: want its ID", id, evs[0].ID)
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if before, ok := rc.eventsOf[id]; ok && before != key {
		return fmt.Errorf("webhook-id %q: named events %q, now %q", id, before, key)
	}
	if before, ok := rc.idOf[key]; ok && before != id {
		return fmt.Errorf("events %q: sent under webhook-id %q, now %q", key, before, id)
	}
	rc.eventsOf[id], rc.idOf[key] = key, id
	rc.ids = append(rc.ids, id)
	return nil
}

// IDs returns the webhook-id of every request the receiver checked, in
// arrival order, whatever it answered.
func (rc *Receiver) IDs() []string {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return slices.Clone(rc.ids)
}

// WebhookSecret is rc.Secret as a sink posting to rc signs with it.
func (rc *Receiver) WebhookSecret() outbox.WebhookSecret {
	s, err := outbox.ParseWebhookSecret(rc.Secret)
	if err != nil {
		rc.t.Fatalf("receiver secret: %v", err)
	}
	return s
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
