package amqp_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	amqp091 "github.com/rabbitmq/amqp091-go"

	"github.com/lapsehq/lapse/delayq"
	"github.com/lapsehq/lapse/delayq/amqp"
	"github.com/lapsehq/lapse/delayq/amqp/amqptest"
	"github.com/lapsehq/lapse/delayq/delayqtest"
)

// TestClaimNeverEarly: items due now, in less than the smallest bucket,
// in a few hops of either bucket, come out each once, none before it is
// due, and within a bucket of it.
func TestClaimNeverEarly(t *testing.T) {
	f := setup(t, amqp.Options{})
	start := time.Now()
	due := map[string]delayq.Item{}
	for _, it := range []delayq.Item{in("past", -time.Second), in("held", 100*time.Millisecond),
		in("hops", 600*time.Millisecond), in("long", 1700*time.Millisecond)} {
		due[it.Kind] = it
		f.add(t, it)
	}
	got := claimAll(t, f.q, 0, len(due), 5*time.Second)
	for k, it := range due {
		at, ok := got[k]
		if !ok {
			t.Fatalf("%v never claimed; claimed %v", it, got)
		}
		from := it.Due
		if from.Before(start) {
			from = start
		}
		if late := at.Sub(from); late > time.Second {
			t.Fatalf("%v claimed %s late", it, late)
		}
	}
}

// TestLongDoesNotHoldShort: an item due in three days does not hold up one
// due in a second and a half in the same shard: it waits in the
// day bucket, the short one in the second bucket.
func TestLongDoesNotHoldShort(t *testing.T) {
	f := setup(t, amqp.Options{Buckets: amqp.DefaultBuckets})
	f.add(t, in("long", 72*time.Hour), in("short", 1500*time.Millisecond))
	got := claimAll(t, f.q, 0, 1, 5*time.Second)
	if _, ok := got["short"]; !ok || len(got) != 1 {
		t.Fatalf("claimed %v, want the short item only", got)
	}
	if n := amqptest.Queues(t, f.prefix)[f.prefix+".delay.24h0m0s"]; n != 1 {
		t.Fatalf("the day bucket holds %d messages, want the long item", n)
	}
}

// TestClaimOnceConcurrently: two instances claiming the same shard at once
// get disjoint items that together are all those added.
func TestClaimOnceConcurrently(t *testing.T) {
	f := setup(t, amqp.Options{})
	const n = 300
	want := map[string]bool{}
	var items []delayq.Item
	for i := range n {
		it := in(fmt.Sprintf("k%d", i), -time.Second)
		items = append(items, it)
		want[it.Kind] = true
	}
	f.add(t, items...)
	delayqtest.ClaimOnceConcurrently(t, []delayqtest.Claimer{f.q, f.open(t)}, time.Now(), want)
}

// TestClaimCopies: an item added twice is claimed once, and one ack
// acknowledges both copies.
func TestClaimCopies(t *testing.T) {
	f := setup(t, amqp.Options{Lease: 200 * time.Millisecond})
	it := in("a", -time.Second)
	f.add(t, it, it)
	f.add(t, it)
	now := time.Now()
	delayqtest.CheckItems(t, "claim", claim(t, f.q, 0, now, 10), []delayq.Item{it})
	f.ack(t, it)
	delayqtest.CheckItems(t, "claim after the lease", claim(t, f.q, 0, now.Add(time.Second), 10), nil)
}

// TestClaimLease: an item claimed and not acked comes back once its lease
// ended; an acked one never does.
func TestClaimLease(t *testing.T) {
	f := setup(t, amqp.Options{Lease: 10 * time.Second})
	acked, dropped := in("acked", -time.Second), in("dropped", -time.Second)
	f.add(t, acked, dropped)
	now := time.Now()
	delayqtest.CheckItems(t, "first claim", claim(t, f.q, 0, now, 10), []delayq.Item{acked, dropped})
	f.ack(t, acked)
	delayqtest.CheckItems(t, "claim in the lease", claim(t, f.q, 0, now.Add(10*time.Second-time.Millisecond), 10), nil)
	delayqtest.CheckItems(t, "claim as the lease ends", claim(t, f.q, 0, now.Add(10*time.Second), 10), []delayq.Item{dropped})
	delayqtest.CheckItems(t, "claim again", claim(t, f.q, 0, now.Add(10*time.Second), 10), nil)
	f.ack(t, dropped)
	delayqtest.CheckItems(t, "claim an hour later", claim(t, f.q, 0, now.Add(time.Hour), 10), nil)
}

// TestLeaseEndsWithoutClaims: an instance that claimed items and then
// stops claiming (it lost the shard) hands them back when their lease
// ends, and the next holder claims them.
func TestLeaseEndsWithoutClaims(t *testing.T) {
	f := setup(t, amqp.Options{Lease: 400 * time.Millisecond})
	it := in("a", -time.Second)
	f.add(t, it)
	delayqtest.CheckItems(t, "claim by the first holder", claim(t, f.q, 0, time.Now(), 10), []delayq.Item{it})
	next := f.open(t)
	delayqtest.CheckItems(t, "claim by the next holder in the lease", claim(t, next, 0, time.Now(), 10), nil)
	if got := claimAll(t, next, 0, 1, 3*time.Second); len(got) != 1 {
		t.Fatalf("the next holder claimed %v after the lease, want %v", got, it)
	}
}

// TestReconnect: after the broker closes the queue's connection, the
// next calls dial again; what was claimed and not acked comes back, and
// its stale ack does nothing.
func TestReconnect(t *testing.T) {
	f := setup(t, amqp.Options{})
	claimed, later := in("claimed", -time.Second), in("later", 300*time.Millisecond)
	f.add(t, claimed, later)
	delayqtest.CheckItems(t, "claim", claim(t, f.q, 0, time.Now(), 10), []delayq.Item{claimed})
	pids := amqptest.Connections(t, amqp.ConnectionName(f.prefix))
	if len(pids) != 1 {
		t.Fatalf("the broker lists %d connections of the queue, want 1", len(pids))
	}
	amqptest.CloseConnections(t, pids)
	var err error
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if err = f.q.Add(context.Background(), []delayq.Item{in("after", 0)}); err == nil {
			break
		}
	}
	if err != nil {
		t.Fatalf("add after the broker closed the connection: %v", err)
	}
	f.ack(t, claimed) // of the lost connection: nothing to ack
	got := claimAll(t, f.q, 0, 3, 5*time.Second)
	for _, k := range []string{"claimed", "later", "after"} {
		if _, ok := got[k]; !ok {
			t.Fatalf("after the reconnection claimed %v, want claimed, later and after", got)
		}
	}
}

// TestMaxLength: a bucket at its maximum length refuses what would
// overflow it, and Add says so; what it holds comes out.
func TestMaxLength(t *testing.T) {
	f := setup(t, amqp.Options{MaxLength: 2})
	var items []delayq.Item
	for i := range 5 {
		items = append(items, in(fmt.Sprintf("k%d", i), 1500*time.Millisecond))
	}
	err := f.q.Add(context.Background(), items)
	if !errors.Is(err, amqp.ErrFull) {
		t.Fatalf("add 5 items to a bucket of 2: got %v, want ErrFull", err)
	}
	if got := claimAll(t, f.q, 0, 2, 4*time.Second); len(got) != 2 {
		t.Fatalf("claimed %v, want the 2 the bucket kept", got)
	}
	for name, n := range amqptest.Queues(t, f.prefix) {
		if n != 0 {
			t.Fatalf("%s holds %d messages once the bucket's 2 were claimed, want none", name, n)
		}
	}
}

// TestForeignMessage: a message not written by Add fails the claim that
// meets it and is dropped; the items got with it come with the next claim.
func TestForeignMessage(t *testing.T) {
	f := setup(t, amqp.Options{})
	good := in("good", -time.Second)
	f.add(t, good)
	conn, err := amqp091.Dial(f.url)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	defer conn.Close()
	ch, err := conn.Channel()
	if err != nil {
		t.Fatalf("channel: %v", err)
	}
	err = ch.Publish(f.prefix+".due", "", false, false, amqp091.Publishing{Headers: amqp091.Table{"shard": "0"}, Body: []byte("garbage")})
	if err != nil {
		t.Fatalf("publish: %v", err)
	}
	time.Sleep(100 * time.Millisecond)
	if items, err := f.q.Claim(context.Background(), 0, time.Now(), 10); err == nil {
		t.Fatalf("claim with a foreign message: got %v and no error", items)
	}
	delayqtest.CheckItems(t, "next claim", claim(t, f.q, 0, time.Now(), 10), []delayq.Item{good})
}
