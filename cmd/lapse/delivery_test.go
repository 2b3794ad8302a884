package main

import (
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/lapsehq/lapse/outbox/outboxtest"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// sinkOutage is how long the webhook of TestSharedDeliverySinkDown is
// down: the 30 seconds. The default --sink-max-attempts (ten,
// which span at least 38 seconds of backoff) outlast it, so no event
// becomes a dead letter.
const sinkOutage = 30 * time.Second

// TestSharedDeliverySinkDown: three instances on one database deliver to
// a webhook that answers 503 for 30 seconds while coupons are claimed and
// expire; once it is back, it has every event at least once, each
// coupon's in order, and no event was given up on.
func TestSharedDeliverySinkDown(t *testing.T) {
	onShared(t, func(t *testing.T, be backend) {
		rc := outboxtest.NewReceiver(t, "")
		rc.SetAnswer(func(int, []outboxtest.Event) (int, time.Duration) { return http.StatusServiceUnavailable, 0 })
		down := time.Now()
		db := be.store(t)
		ss := startShared(t, db, 3, "--sink", "webhook+"+rc.URL+"#batch=50")
		const n = 200
		_, cs := ss[1].seed(t, n, time.Now().Add(3*time.Second))
		waitAllExpired(t, ss[2], len(cs))
		if time.Since(down) > sinkOutage {
			t.Fatalf("the coupons expired %s after the webhook went down, after the outage: nothing was tested", time.Since(down))
		}
		time.Sleep(time.Until(down.Add(sinkOutage)))
		if got, tries := len(rc.Events()), rc.Requests(); got != 0 || tries == 0 {
			t.Fatalf("webhook down: %d requests, %d events accepted; want some requests and none accepted", tries, got)
		}
		rc.SetAnswer(nil)
		rc.WaitDistinct(t, 2*n, time.Minute) // the backoff after the outage may be as long as half a minute
		ss[0].waitSinksCaughtUp(t, 1)
		feed := feedOf(t, be, db)
		if got := byType(feed, func(e storetype.Event) string { return e.Type }); got[store.EventCouponClaimed] != n || got[store.EventCouponExpired] != n {
			t.Fatalf("feed: got %v, want %d claimed and %d expired", got, n, n)
		}
		dups := outboxtest.Check(t, feed, rc.Events())
		t.Logf("%d events delivered after the outage, %d duplicates", len(feed), dups)
	})
}

// TestRetentionPrunesDelivered: lapse with a sink and --event-retention
// deletes the events older than the retention that the sink has
// delivered, and keeps the newer ones. The relay prunes as it starts, and
// a minute later; the test restarts lapse rather than wait.
func TestRetentionPrunesDelivered(t *testing.T) { onEach(t, testRetentionPrunesDelivered) }

func testRetentionPrunesDelivered(t *testing.T, be backend) {
	const retention = 10 * time.Second
	rc := outboxtest.NewReceiver(t, "")
	db := be.store(t)
	args := []string{"--sink", "webhook+" + rc.URL, "--event-retention", retention.String()}
	far := time.Now().Add(time.Hour)
	s := start(t, db, args...)
	s.seed(t, 20, far)
	s.waitSinksCaughtUp(t, 1)
	time.Sleep(retention)
	mid := time.Now().Truncate(time.Millisecond)
	s.seed(t, 10, far)
	s.waitSinksCaughtUp(t, 1)
	s.stop(t)
	before := feedOf(t, be, db)
	var young []string
	for _, e := range before {
		if !e.Time.Before(mid) {
			young = append(young, e.ID)
		}
	}
	if len(young) == 0 || len(young) == len(before) {
		t.Fatalf("feed: %d events, %d of them after %s; want old ones and new ones", len(before), len(young), mid)
	}

	s2 := start(t, db, args...)
	waitUntil(t, "the delivered events older than the retention pruned", func() bool {
		return len(s2.feed(t, store.EventCouponClaimed)) < 30
	})
	if since := time.Since(mid); since >= retention {
		t.Fatalf("the restart came %s after the new events, past the %s retention: the test cannot tell them apart", since, retention)
	}
	s2.stop(t)
	var left []string
	for _, e := range feedOf(t, be, db) {
		left = append(left, e.ID)
	}
	if !slices.Equal(left, young) {
		t.Fatalf("feed after pruning: got %d events %v, want the %d newer than the retention %v", len(left), left, len(young), young)
	}
}
