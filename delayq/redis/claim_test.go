package redis_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/lapsehq/lapse/delayq"
	"github.com/lapsehq/lapse/delayq/delayqtest"
)

// TestClaimNeverEarly: Claim returns the items due at or before now,
// earliest first and at most limit, and never one due after now, even by
// less than a millisecond.
func TestClaimNeverEarly(t *testing.T) {
	f := setup(t, time.Minute)
	f.add(t, at("late", time.Second), at("now", 0), at("sub-ms", 500*time.Microsecond), at("past", -time.Millisecond), at("next-ms", time.Millisecond))
	delayqtest.CheckItems(t, "claim at t0, limit 1", f.claim(t, 0, t0, 1), []delayq.Item{at("past", -time.Millisecond)})
	delayqtest.CheckItems(t, "claim at t0", f.claim(t, 0, t0.Add(999*time.Microsecond), 10), []delayq.Item{at("now", 0)})
	delayqtest.CheckItems(t, "claim at t0+1ms", f.claim(t, 0, t0.Add(time.Millisecond), 10),
		[]delayq.Item{at("next-ms", time.Millisecond), at("sub-ms", time.Millisecond)})
	delayqtest.CheckItems(t, "claim just before 1s", f.claim(t, 0, t0.Add(time.Second-time.Nanosecond), 10), nil)
	delayqtest.CheckItems(t, "claim at 1s", f.claim(t, 0, t0.Add(time.Second), 10), []delayq.Item{at("late", time.Second)})
}

// TestClaimOnceConcurrently: two instances claiming the same shard at once
// get disjoint items that together are exactly the due ones.
func TestClaimOnceConcurrently(t *testing.T) {
	f := setup(t, time.Minute)
	const due, notDue = 2000, 100
	want := map[string]bool{}
	var items []delayq.Item
	for i := range due + notDue {
		it := at(fmt.Sprintf("k%d", i), time.Duration(i)*time.Millisecond)
		items = append(items, it)
		if i < due {
			want[it.Kind] = true
		}
	}
	f.add(t, items...)
	delayqtest.ClaimOnceConcurrently(t, []delayqtest.Claimer{f.q, f.open(t)}, t0.Add((due-1)*time.Millisecond), want)
	if n := f.card(t, 0, "due"); n != notDue {
		t.Fatalf("%d items left due, want %d", n, notDue)
	}
}

// TestClaimMany: one claim of more than the script moves at a time takes
// every due item, in due order, into the in-flight set.
func TestClaimMany(t *testing.T) {
	f := setup(t, time.Minute)
	const due = 2500
	var items []delayq.Item
	for i := range due + 10 {
		items = append(items, at(fmt.Sprintf("k%04d", i), time.Duration(i)*time.Millisecond))
	}
	f.add(t, items...)
	delayqtest.CheckItems(t, "claim", f.claim(t, 0, t0.Add((due-1)*time.Millisecond), 3000), items[:due])
	if n := f.card(t, 0, "inflight"); n != due {
		t.Fatalf("%d items in flight, want %d", n, due)
	}
	if n := f.card(t, 0, "due"); n != 10 {
		t.Fatalf("%d items left due, want 10", n)
	}
}

// TestClaimLease: an item claimed and not acked comes back once its lease
// ended; an acked one never does.
func TestClaimLease(t *testing.T) {
	f := setup(t, 10*time.Second)
	acked, dropped := at("acked", 0), at("dropped", 0)
	f.add(t, acked, dropped)
	delayqtest.CheckItems(t, "first claim", f.claim(t, 0, t0, 10), []delayq.Item{acked, dropped})
	f.ack(t, acked)
	delayqtest.CheckItems(t, "claim in the lease", f.claim(t, 0, t0.Add(10*time.Second-time.Millisecond), 10), nil)
	delayqtest.CheckItems(t, "claim as the lease ends", f.claim(t, 0, t0.Add(10*time.Second), 10), []delayq.Item{dropped})
	delayqtest.CheckItems(t, "claim again", f.claim(t, 0, t0.Add(10*time.Second), 10), nil)
	f.ack(t, dropped)
	delayqtest.CheckItems(t, "claim an hour later", f.claim(t, 0, t0.Add(time.Hour), 10), nil)
	for _, set := range []string{"due", "inflight"} {
		if n := f.card(t, 0, set); n != 0 {
			t.Fatalf("%s set holds %d items after every ack, want 0", set, n)
		}
	}
}

// TestClaimKeysLost: when Redis loses the keys (flush, eviction, failover
// without them), Claim finds nothing and no error, Ack and Next too.
func TestClaimKeysLost(t *testing.T) {
	f := setup(t, time.Minute)
	f.add(t, at("a", 0), at("b", 0), at("c", time.Second))
	claimed := f.claim(t, 0, t0, 1)
	f.clear(t)
	delayqtest.CheckItems(t, "claim after the loss", f.claim(t, 0, t0.Add(time.Hour), 10), nil)
	f.ack(t, claimed...)
	if _, ok, err := f.q.Next(context.Background(), []int{0}); ok || err != nil {
		t.Fatalf("next after the loss: got %v, %v, want nothing", ok, err)
	}
}

// TestClaimForeignMember: a member not written by Add fails the claim that
// meets it; the items claimed with it come back after the lease, and it
// does not.
func TestClaimForeignMember(t *testing.T) {
	f := setup(t, time.Second)
	good := at("good", 0)
	f.add(t, good)
	if err := f.rdb.ZAdd(context.Background(), f.key(0, "due"), goredis.Z{Score: float64(t0.UnixMilli()), Member: "garbage"}).Err(); err != nil {
		t.Fatalf("ZADD: %v", err)
	}
	if items, err := f.q.Claim(context.Background(), 0, t0, 10); err == nil {
		t.Fatalf("claim with a foreign member: got %v and no error", items)
	}
	delayqtest.CheckItems(t, "claim after the lease", f.claim(t, 0, t0.Add(time.Second), 10), []delayq.Item{good})
	delayqtest.CheckItems(t, "claim after the next lease", f.claim(t, 0, t0.Add(2*time.Second), 10), []delayq.Item{good})
}

// BenchmarkClaim claims 1000 at a time from a shard of 100k due items.
func BenchmarkClaim(b *testing.B) {
	f := setup(b, time.Hour)
	const size, limit = 100_000, 1000
	items := make([]delayq.Item, size)
	for i := range items {
		items[i] = at(fmt.Sprintf("kind-%d", i), time.Duration(i)*time.Millisecond)
	}
	now := t0.Add(size * time.Millisecond)
	left := 0
	for b.Loop() {
		if left == 0 {
			b.StopTimer()
			f.clear(b)
			f.add(b, items...)
			left = size
			b.StartTimer()
		}
		if n := len(f.claim(b, 0, now, limit)); n != limit {
			b.Fatalf("claimed %d, want %d", n, limit)
		}
		left -= limit
	}
	b.ReportMetric(float64(b.N*limit)/b.Elapsed().Seconds(), "items/s")
}
