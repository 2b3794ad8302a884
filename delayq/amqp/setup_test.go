package amqp_test

import (
	"context"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/lapsehq/lapse/delayq"
	"github.com/lapsehq/lapse/delayq/amqp"
	"github.com/lapsehq/lapse/delayq/amqp/amqptest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// testBuckets are short, so that items hop through them within a test.
var testBuckets = []time.Duration{250 * time.Millisecond, time.Second}

// fixture is a Queue of LAPSE_TEST_AMQP on a prefix of its own.
type fixture struct {
	q      *amqp.Queue
	url    string
	prefix string
	o      amqp.Options
}

// setup opens a Queue on a fresh prefix with o (testBuckets if o names
// none), skipping t without LAPSE_TEST_AMQP. The prefix's queues are
// deleted when t ends.
func setup(t *testing.T, o amqp.Options) *fixture {
	t.Helper()
	f := &fixture{url: amqptest.URL(t), prefix: amqptest.Prefix(t), o: o}
	f.o.Prefix = f.prefix
	if f.o.Buckets == nil {
		f.o.Buckets = testBuckets
	}
	f.q = f.open(t)
	return f
}

// open opens another Queue on f's prefix, closed when t ends.
func (f *fixture) open(t *testing.T) *amqp.Queue {
	t.Helper()
	q, err := amqp.Open(context.Background(), f.url, f.o)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { q.Close() })
	return q
}

// add adds items.
func (f *fixture) add(t *testing.T, items ...delayq.Item) {
	t.Helper()
	if err := f.q.Add(context.Background(), items); err != nil {
		t.Fatalf("add: %v", err)
	}
}

// ack acks items.
func (f *fixture) ack(t *testing.T, items ...delayq.Item) {
	t.Helper()
	if err := f.q.Ack(context.Background(), items); err != nil {
		t.Fatalf("ack: %v", err)
	}
}

// claim claims up to limit items of shard at now from q.
func claim(t *testing.T, q *amqp.Queue, shard int, now time.Time, limit int) []delayq.Item {
	t.Helper()
	items, err := q.Claim(context.Background(), shard, now, limit)
	if err != nil {
		t.Fatalf("claim shard %d at %v: %v", shard, now, err)
	}
	return items
}

// in is an item of kind k in shard 0 due d from now, at the
// millisecond the queue keeps.
func in(k string, d time.Duration) delayq.Item {
	return delayq.Item{Kind: k, Due: time.Now().Add(d).Truncate(time.Millisecond)}
}

// claimAll claims shard from q every 20ms, with the time as now, for up
// to wait, until it claimed want items; it acks each, fails t on one
// claimed before its due time or twice, and returns them by kind with
// when they were claimed.
func claimAll(t *testing.T, q *amqp.Queue, shard, want int, wait time.Duration) map[string]time.Time {
	t.Helper()
	got := map[string]time.Time{}
	for deadline := time.Now().Add(wait); len(got) < want && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		now := time.Now()
		items := claim(t, q, shard, now, 10)
		for _, it := range items {
			if it.Due.After(now) {
				t.Fatalf("%v claimed at %v: early", it, now)
			}
			if _, dup := got[it.Kind]; dup {
				t.Fatalf("%v claimed twice", it)
			}
			got[it.Kind] = now
		}
		if err := q.Ack(context.Background(), items); err != nil {
			t.Fatalf("ack: %v", err)
		}
	}
	return got
}
