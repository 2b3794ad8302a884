package main

import (
	"context"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lapsehq/lapse/client/clienttest"
	"github.com/lapsehq/lapse/outbox/outboxtest"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// stop sends SIGTERM and waits for a clean exit.
func (s *server) stop(t *testing.T) {
	t.Helper()
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatalf("SIGTERM: %v", err)
	}
	if err := s.cmd.Wait(); err != nil {
		t.Fatalf("exit after SIGTERM: %v; log:\n%s", err, s.log.String())
	}
}

// waitSinksCaughtUp polls GET /v1/sinks until every sink has no lag.
func (s *server) waitSinksCaughtUp(t *testing.T, n int) {
	t.Helper()
	for range 2000 {
		sinks := clienttest.Must(s.api.Sinks(t.Context())).On(t)
		if len(sinks) != n {
			t.Fatalf("sinks: got %+v, want %d", sinks, n)
		}
		done := true
		for _, sk := range sinks {
			if sk.DeadLetters != 0 {
				t.Fatalf("sink %s: %d dead letters, want none", sk.Name, sk.DeadLetters)
			}
			done = done && sk.Lag == 0
		}
		if done {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("sinks never caught up; log:\n%s", s.log.String())
}

// byType counts events by type.
func byType[E any](evs []E, typ func(E) string) map[string]int {
	out := map[string]int{}
	for _, e := range evs {
		out[typ(e)]++
	}
	return out
}

// TestSinksDeliverEachEventOnce is the new-user run: lapse with a
// signed webhook and a Redis stream; 1,000 coupons claimed and expired;
// each sink gets 1,000 coupon.claimed and 1,000 coupon.expired, each once
// by ID, in order per coupon.
func TestSinksDeliverEachEventOnce(t *testing.T) {
	rdb, redisURL, stream := outboxtest.RedisStream(t)
	sinkURL, _ := url.Parse(redisURL)
	q := sinkURL.Query()
	q.Set("stream", stream)
	sinkURL.RawQuery = q.Encode()
	sinkURL.Fragment = "name=stream"

	rc := outboxtest.NewReceiver(t, "e2e-secret")
	db := filepath.Join(t.TempDir(), "lapse.db")
	s := start(t, "sqlite:"+db, "--sink", "webhook+"+rc.URL+"#name=hook&batch=50", "--sink", sinkURL.String(), "--sink-secret", "e2e-secret")
	const n = 1000
	_, cs := s.seed(t, n, time.Now().Add(8*time.Second)) // a margin for a loaded machine
	waitExpired(t, s, len(cs))
	s.waitSinksCaughtUp(t, 2)
	s.stop(t)

	feed := feedOf(t, backends[0], "sqlite:"+db)
	if got := byType(feed, func(e storetype.Event) string { return e.Type }); got[store.EventCouponClaimed] != n || got[store.EventCouponExpired] != n || len(feed) != 2*n {
		t.Fatalf("feed: got %v, want %d claimed and %d expired", got, n, n)
	}
	outboxtest.CheckOnce(t, "webhook", feed, rc.Events())
	outboxtest.CheckOnce(t, "redis", feed, outboxtest.ReadStream(t, rdb, stream))
	if !strings.Contains(s.log.String(), "deprecated Lapse-Signature") {
		t.Fatalf("log: want a warning that a secret not whsec_… also sends the deprecated Lapse-Signature:\n%s", s.log.String())
	}
}

// TestWebhookStandardSignatures: lapse with a whsec_ --sink-secret and two
// webhooks, one event a request and 50, on every store: each request
// verifies with the official Standard Webhooks library, and no longer
// does with its body, id or timestamp tampered or with another secret
// (outboxtest.Receiver checks them); each webhook gets every claim and
// expiry once by ID, in order per coupon; neither GET /v1/sinks nor the
// log shows the secret.
func TestWebhookStandardSignatures(t *testing.T) { onEach(t, testWebhookStandardSignatures) }

func testWebhookStandardSignatures(t *testing.T, be backend) {
	one, batched := outboxtest.NewReceiver(t, outboxtest.TestSecret), outboxtest.NewReceiver(t, outboxtest.TestSecret)
	db := be.store(t)
	s := start(t, db, "--sink", "webhook+"+one.URL+"#name=one", "--sink", "webhook+"+batched.URL+"#name=batched&batch=50",
		"--sink-secret", outboxtest.TestSecret)
	const n = 100
	_, cs := s.seed(t, n, time.Now().Add(3*time.Second))
	waitExpired(t, s, len(cs))
	s.waitSinksCaughtUp(t, 2)
	sinks := s.raw(t, "/v1/sinks")
	s.stop(t)

	feed := feedOf(t, be, db)
	if len(feed) != 2*n {
		t.Fatalf("feed: got %d events, want %d claimed and %d expired", len(feed), n, n)
	}
	outboxtest.CheckOnce(t, "one", feed, one.Events())
	outboxtest.CheckOnce(t, "batched", feed, batched.Events())
	if got := len(one.IDs()); got != 2*n {
		t.Fatalf("one event a request: got %d requests, want %d", got, 2*n)
	}
	key := strings.TrimPrefix(outboxtest.TestSecret, "whsec_")
	for what, text := range map[string]string{"GET /v1/sinks": sinks, "log": s.log.String()} {
		if strings.Contains(text, key) {
			t.Fatalf("%s shows the secret:\n%s", what, text)
		}
	}
}

// TestKill9MidDeliveryLosesNothing kills lapse with SIGKILL while its
// webhook is working through a batch the relay has not yet recorded as
// acknowledged; after a restart every event has arrived, the batch's
// again with the same IDs, each coupon's in order.
func TestKill9MidDeliveryLosesNothing(t *testing.T) { onEach(t, testKill9MidDelivery) }

func testKill9MidDelivery(t *testing.T, be backend) {
	rc := outboxtest.NewReceiver(t, "")
	rc.SetAnswer(func(int, []outboxtest.Event) (int, time.Duration) { return http.StatusNoContent, 2 * time.Millisecond })
	db := be.store(t)
	sink := "webhook+" + rc.URL
	s := start(t, db, "--sink", sink)
	const n = 300
	_, cs := s.seed(t, n, time.Now().Add(be.lead))
	waitExpired(t, s, len(cs))
	// The claims trickled in and were delivered as they came; the storm's
	// expiries are one batch for the relay.
	deadline := time.Now().Add(30 * time.Second)
	for outboxtest.Distinct(rc.Events()) < n+n/4 {
		if time.Now().After(deadline) {
			t.Fatalf("webhook never got into the expiries; log:\n%s", s.log.String())
		}
		time.Sleep(time.Millisecond)
	}
	if err := s.cmd.Process.Kill(); err != nil {
		t.Fatalf("SIGKILL: %v", err)
	}
	s.cmd.Wait()

	st := openStopped(t, be, db)
	state, err := st.SinkState(context.Background(), "webhook")
	st.Close()
	if err != nil {
		t.Fatalf("SinkState: %v", err)
	}
	seqOf := map[string]int64{}
	for _, e := range feedOf(t, be, db) {
		seqOf[e.ID] = e.Seq
	}
	unrecorded := 0
	for _, e := range rc.Events() {
		if seqOf[e.ID] > state.Position {
			unrecorded++
		}
	}
	if unrecorded == 0 || outboxtest.Distinct(rc.Events()) == 2*n {
		t.Fatalf("the kill came between batches (%d received, position %d): nothing was tested", outboxtest.Distinct(rc.Events()), state.Position)
	}
	t.Logf("killed with %d events received, %d of them past the stored position", outboxtest.Distinct(rc.Events()), unrecorded)

	rc.SetAnswer(nil)
	s2 := start(t, db, "--sink", sink)
	s2.waitSinksCaughtUp(t, 1)
	s2.stop(t)
	dups := outboxtest.Check(t, feedOf(t, be, db), rc.Events())
	if dups < unrecorded {
		t.Fatalf("duplicates: got %d, want at least the %d events delivered but not recorded", dups, unrecorded)
	}
}
