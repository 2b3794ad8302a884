package amqp_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/lapsehq/lapse/delayq"
	"github.com/lapsehq/lapse/delayq/amqp"
	"github.com/lapsehq/lapse/delayq/amqp/amqptest"
)

// TestAddRoutes: an item waits in the largest bucket its delay fits, and
// one due sooner than the smallest goes straight to its shard's due
// queue.
func TestAddRoutes(t *testing.T) {
	f := setup(t, amqp.Options{Buckets: amqp.DefaultBuckets})
	f.add(t,
		delayq.Item{Kind: "a", Shard: 3, Due: time.Now().Add(-time.Minute)},
		delayq.Item{Kind: "a", Shard: 3, Due: time.Now().Add(10 * time.Minute)},
		delayq.Item{Kind: "b", Shard: 5, Due: time.Now().Add(10 * time.Minute)},
		delayq.Item{Kind: "a", Shard: 3, Due: time.Now().Add(3 * time.Hour)},
	)
	got := amqptest.Queues(t, f.prefix)
	want := map[string]int{f.prefix + ".due.3": 1, f.prefix + ".due.5": 0, f.prefix + ".delay.5m0s": 2, f.prefix + ".delay.2h0m0s": 1}
	for name, n := range want {
		if got[name] != n {
			t.Fatalf("queue %s holds %d messages, want %d; queues: %v", name, got[name], n, got)
		}
	}
}

// TestOpenFails: Open fails cleanly on a bad URL, an unreachable broker
// or bad buckets.
func TestOpenFails(t *testing.T) {
	url := amqptest.URL(t)
	for _, c := range []struct {
		url string
		o   amqp.Options
	}{
		{"amqp://guest:guest@127.0.0.1:1/", amqp.Options{}},
		{"http://127.0.0.1:5672", amqp.Options{}},
		{"", amqp.Options{}},
		{url, amqp.Options{Buckets: []time.Duration{-time.Second}}},
	} {
		if q, err := amqp.Open(context.Background(), c.url, c.o); err == nil {
			q.Close()
			t.Fatalf("open %q with %+v: no error", c.url, c.o)
		}
	}
}

// TestClosed: once the queue is closed every call fails with ErrClosed,
// and closing it again does nothing.
func TestClosed(t *testing.T) {
	f := setup(t, amqp.Options{})
	q := f.open(t)
	if err := q.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	if err := q.Close(); err != nil {
		t.Fatalf("close again: %v", err)
	}
	ctx := context.Background()
	items := []delayq.Item{in("a", 0)}
	if err := q.Add(ctx, items); !errors.Is(err, amqp.ErrClosed) {
		t.Fatalf("add on a closed queue: got %v, want ErrClosed", err)
	}
	if _, err := q.Claim(ctx, 0, time.Now(), 1); !errors.Is(err, amqp.ErrClosed) {
		t.Fatalf("claim on a closed queue: got %v, want ErrClosed", err)
	}
	if err := q.Ack(ctx, items); !errors.Is(err, amqp.ErrClosed) {
		t.Fatalf("ack on a closed queue: got %v, want ErrClosed", err)
	}
}
