package outbox_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lapsehq/lapse/outbox"
	"github.com/lapsehq/lapse/outbox/outboxtest"
	"github.com/lapsehq/lapse/storetype"
)

// TestWebhookSigned: with a whsec_ secret, one of earlier releases or
// none, in structured and batched mode, a receiver gets every event, each
// request checked with the official Standard Webhooks library (see
// outboxtest.Receiver): its signature verifies, and no longer does with
// a tampered body, id or timestamp or with another secret; the deprecated
// Lapse-Signature comes with a secret of earlier releases only.
func TestWebhookSigned(t *testing.T) {
	for _, secret := range []string{outboxtest.TestSecret, "an-old-secret", ""} {
		for _, batch := range []int{1, 7} {
			t.Run(fmt.Sprintf("%q/batch=%d", secret, batch), func(t *testing.T) {
				rc := outboxtest.NewReceiver(t, secret)
				st, want := storeWithHistory(t, 5, 2)
				startRelay(t, relayConfig(st, webhook(rc, "hook", batch)))
				outboxtest.CheckOnce(t, "delivery", want, rc.WaitDistinct(t, len(want), 10*time.Second))
				if n := len(rc.IDs()); n != (len(want)+batch-1)/batch {
					t.Fatalf("requests checked: got %d, want %d", n, (len(want)+batch-1)/batch)
				}
			})
		}
	}
}

// TestWebhookRedeliverySameID: a request sent again carries the same
// webhook-id, so that a receiver may deduplicate by it; the first event
// of a failed batch, retried alone, carries its own ID.
func TestWebhookRedeliverySameID(t *testing.T) {
	for _, batch := range []int{1, 5} {
		t.Run(fmt.Sprintf("batch=%d", batch), func(t *testing.T) {
			rc := outboxtest.NewReceiver(t, outboxtest.TestSecret)
			rc.SetAnswer(outboxtest.FailFirst(3))
			st, want := storeWithHistory(t, 5, 1)
			startRelay(t, relayConfig(st, webhook(rc, "hook", batch)))
			outboxtest.Check(t, want, rc.WaitDistinct(t, len(want), 10*time.Second))
			ids := rc.IDs()
			first := want[0].ID
			if batch > 1 && !strings.HasPrefix(ids[0], "msg_") {
				t.Fatalf("webhook-id of the first batch: got %q, want msg_…", ids[0])
			}
			if batch == 1 && ids[0] != first {
				t.Fatalf("webhook-id of the first event: got %q, want %q", ids[0], first)
			}
			for i := 1; i <= 3; i++ {
				if ids[i] != first {
					t.Fatalf("webhook-ids: got %q, want %q again for retries 1 to 3", ids[:4], first)
				}
			}
		})
	}
}

// TestWebhookStructured: one signed CloudEvent per request, every event
// once, in order.
func TestWebhookStructured(t *testing.T) {
	rc := outboxtest.NewReceiver(t, outboxtest.TestSecret)
	st, want := storeWithHistory(t, 5, 2)
	startRelay(t, relayConfig(st, webhook(rc, "hook", 1)))
	got := rc.WaitDistinct(t, len(want), 10*time.Second)
	outboxtest.CheckOnce(t, "delivery", want, got)
	if n := rc.Requests(); n != len(want) {
		t.Fatalf("requests: got %d, want one per event (%d)", n, len(want))
	}
}

// TestWebhookBatched: batched mode sends arrays of at most the batch size.
func TestWebhookBatched(t *testing.T) {
	rc := outboxtest.NewReceiver(t, outboxtest.TestSecret)
	var mu sync.Mutex
	largest := 0
	rc.SetAnswer(func(n int, evs []outboxtest.Event) (int, time.Duration) {
		mu.Lock()
		largest = max(largest, len(evs))
		mu.Unlock()
		return http.StatusOK, 0
	})
	st, want := storeWithHistory(t, 20, 2)
	startRelay(t, relayConfig(st, webhook(rc, "hook", 7)))
	outboxtest.Check(t, want, rc.WaitDistinct(t, len(want), 10*time.Second))
	if largest != 7 {
		t.Fatalf("largest request: got %d events, want 7", largest)
	}
}

// TestWebhookFailsFirst: a receiver that answers 500 to its first
// requests gets every event, duplicates carrying the same ID, each subject
// in order.
func TestWebhookFailsFirst(t *testing.T) {
	rc := outboxtest.NewReceiver(t, "")
	rc.SetAnswer(outboxtest.FailFirst(5))
	st, want := storeWithHistory(t, 10, 3)
	r := startRelay(t, relayConfig(st, webhook(rc, "hook", 10)))
	outboxtest.Check(t, want, rc.WaitDistinct(t, len(want), 10*time.Second))
	waitFor(t, 5*time.Second, "lag 0", func() bool { return sinkStatus(t, r, "hook").Lag == 0 })
	status := sinkStatus(t, r, "hook")
	if status.Failures != 5 || status.DeadLetters != 0 || status.LastError != "" {
		t.Fatalf("status: got %+v, want 5 failures, no dead letter, no error now", status)
	}
}

// TestWebhookSlow: a receiver that takes long per call, within the
// timeout, gets every event once.
func TestWebhookSlow(t *testing.T) {
	rc := outboxtest.NewReceiver(t, "")
	rc.SetAnswer(func(int, []outboxtest.Event) (int, time.Duration) { return http.StatusOK, 300 * time.Millisecond })
	st, want := storeWithHistory(t, 20, 1)
	startRelay(t, relayConfig(st, webhook(rc, "hook", 20)))
	outboxtest.CheckOnce(t, "delivery", want, rc.WaitDistinct(t, len(want), 20*time.Second))
}

// TestWebhookTimeout: a receiver slower than the sink's timeout for its
// first calls keeps what it was sent; the retries are duplicates with the
// same IDs, and nothing is lost.
func TestWebhookTimeout(t *testing.T) {
	rc := outboxtest.NewReceiver(t, "")
	rc.SetAnswer(func(n int, evs []outboxtest.Event) (int, time.Duration) {
		if n <= 2 {
			return http.StatusOK, 400 * time.Millisecond
		}
		return http.StatusOK, 0
	})
	st, want := storeWithHistory(t, 10, 1)
	hook := outbox.Named{Name: "hook", Type: "webhook", Sink: outbox.NewWebhook(outbox.WebhookConfig{
		URL: rc.URL, Batch: 10, Timeout: 150 * time.Millisecond, Now: time.Now,
	})}
	startRelay(t, relayConfig(st, hook))
	got := rc.WaitDistinct(t, len(want), 10*time.Second)
	time.Sleep(500 * time.Millisecond) // let the timed-out calls land
	if dups := outboxtest.Check(t, want, rc.Events()); dups == 0 {
		t.Fatalf("duplicates: got none of %d events, want the timed-out calls' events again", len(got))
	}
}

// TestWebhookDown: a receiver that is down for a while, then up on the
// same address, gets every event.
func TestWebhookDown(t *testing.T) {
	rc := outboxtest.NewReceiver(t, "")
	addr := rc.Server.Listener.Addr().String()
	rc.Server.Close()
	st, want := storeWithHistory(t, 10, 2)
	r := startRelay(t, relayConfig(st, outbox.Named{Name: "hook", Type: "webhook", Sink: outbox.NewWebhook(outbox.WebhookConfig{
		URL: "http://" + addr + "/hook", Batch: 5, Now: time.Now,
	})}))
	waitFor(t, 5*time.Second, "failures while down", func() bool { return sinkStatus(t, r, "hook").Failures >= 3 })
	time.Sleep(time.Second) // down for more than a second
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("listen again on %s: %v", addr, err)
	}
	up := httptest.NewUnstartedServer(rc)
	up.Listener.Close()
	up.Listener = ln
	up.Start()
	defer up.Close()
	outboxtest.Check(t, want, rc.WaitDistinct(t, len(want), 10*time.Second))
	waitFor(t, 5*time.Second, "lag 0", func() bool { return sinkStatus(t, r, "hook").Lag == 0 })
	if st := sinkStatus(t, r, "hook"); st.DeadLetters != 0 {
		t.Fatalf("status: got %+v, want no dead letter", st)
	}
}

// TestWebhookRedirectFails: a redirect is not an acknowledgement.
func TestWebhookRedirectFails(t *testing.T) {
	srv := httptest.NewServer(http.RedirectHandler("/elsewhere", http.StatusTemporaryRedirect))
	defer srv.Close()
	w := outbox.NewWebhook(outbox.WebhookConfig{URL: srv.URL, Now: time.Now})
	defer w.Close()
	n, err := w.Deliver(context.Background(), []storetype.Event{{ID: "evt_1", Type: "coupon.claimed", Subject: "cpn_1", Data: []byte("{}")}})
	if n != 0 || err == nil || !strings.Contains(err.Error(), "307") {
		t.Fatalf("Deliver to a redirect: got %d, %v; want 0 and a 307 error", n, err)
	}
}

// sinkStatus returns the status of the named sink.
func sinkStatus(t testing.TB, r *outbox.Relay, name string) outbox.SinkStatus {
	t.Helper()
	all, err := r.Status(context.Background())
	if err != nil {
		t.Fatalf("Status: %v", err)
	}
	for _, s := range all {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("Status: no sink %s in %+v", name, all)
	return outbox.SinkStatus{}
}
