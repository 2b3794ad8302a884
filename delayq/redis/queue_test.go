package redis_test

import (
	"context"
	"testing"
	"time"

	"github.com/lapsehq/lapse/delayq"
	"github.com/lapsehq/lapse/delayq/delayqtest"
	"github.com/lapsehq/lapse/delayq/redis"
)

// TestAddIdempotent: items land in the due set of their shard, and adding
// an item again, in the same call or later, changes nothing.
func TestAddIdempotent(t *testing.T) {
	f := setup(t, time.Minute)
	items := []delayq.Item{
		{Kind: "a", Shard: 0, Due: t0},
		{Kind: "a", Shard: 1, Due: t0},
		{Kind: "b", Shard: 1, Due: t0},
		{Kind: "a", Shard: 1, Due: t0.Add(time.Second)},
		{Kind: "a", Shard: 7, Due: t0},
		{Kind: "a", Shard: 7, Due: t0},
	}
	f.add(t, items...)
	f.add(t, items...)
	want := map[int]int64{0: 1, 1: 3, 2: 0, 7: 1}
	for shard, n := range want {
		if got := f.card(t, shard, "due"); got != n {
			t.Fatalf("shard %d: %d items due, want %d", shard, got, n)
		}
	}
	delayqtest.CheckItems(t, "claim shard 1", f.claim(t, 1, t0.Add(time.Second), 10), items[1:4])
}

// TestNext: Next is the earliest due time over the shards asked, or the
// end of a lease if sooner, and nothing when they hold nothing.
func TestNext(t *testing.T) {
	f := setup(t, time.Minute)
	ctx := context.Background()
	f.add(t,
		delayq.Item{Kind: "a", Shard: 0, Due: t0.Add(5 * time.Second)},
		delayq.Item{Kind: "a", Shard: 1, Due: t0.Add(3 * time.Second)},
		delayq.Item{Kind: "b", Shard: 1, Due: t0.Add(4 * time.Second)},
		delayq.Item{Kind: "a", Shard: 2, Due: t0.Add(time.Second)},
	)
	f.claim(t, 2, t0.Add(2*time.Second), 10)
	for _, c := range []struct {
		shards []int
		want   time.Time
	}{
		{[]int{0}, t0.Add(5 * time.Second)},
		{[]int{0, 1}, t0.Add(3 * time.Second)},
		{[]int{2, 0, 1}, t0.Add(3 * time.Second)},
		{[]int{2}, t0.Add(2*time.Second + time.Minute)},
		{[]int{3}, time.Time{}},
		{nil, time.Time{}},
	} {
		got, ok, err := f.q.Next(ctx, c.shards)
		if err != nil || ok != !c.want.IsZero() || !got.Equal(c.want) {
			t.Fatalf("next of %v: got %v, %v, %v, want %v", c.shards, got, ok, err, c.want)
		}
	}
}

// TestOpenFails: Open fails cleanly on a bad URL or an unreachable server.
func TestOpenFails(t *testing.T) {
	for _, url := range []string{"redis://127.0.0.1:1/0", "http://127.0.0.1:6379", "redis://127.0.0.1:6379/notadb", ""} {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		q, err := redis.Open(ctx, url, redis.Options{})
		cancel()
		if err == nil {
			q.Close()
			t.Fatalf("open %q: no error", url)
		}
	}
}

// TestClosed: once the connection is gone every call fails with an error.
func TestClosed(t *testing.T) {
	f := setup(t, time.Minute)
	q := f.open(t)
	q.Close()
	ctx := context.Background()
	items := []delayq.Item{at("a", 0)}
	if err := q.Add(ctx, items); err == nil {
		t.Fatal("add on a closed queue: no error")
	}
	if _, err := q.Claim(ctx, 0, t0, 1); err == nil {
		t.Fatal("claim on a closed queue: no error")
	}
	if err := q.Ack(ctx, items); err == nil {
		t.Fatal("ack on a closed queue: no error")
	}
	if _, _, err := q.Next(ctx, []int{0}); err == nil {
		t.Fatal("next on a closed queue: no error")
	}
}
