package outbox_test

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lapsehq/lapse/internal/redistest"
	"github.com/lapsehq/lapse/outbox"
	"github.com/lapsehq/lapse/outbox/outboxtest"
)

// redisSink returns a client of LAPSE_TEST_REDIS and a sink, with a
// client of its own, on a fresh stream, removed when t ends.
func redisSink(t testing.TB, maxLen int64) (*redis.Client, string, outbox.Named) {
	t.Helper()
	rdb, _, stream := outboxtest.RedisStream(t)
	return rdb, stream, outbox.Named{Name: "stream", Type: "redis", Sink: outbox.NewRedisStream(redis.NewClient(rdb.Options()), stream, maxLen)}
}

// TestRedisStream: every event is XADDed once, in feed order.
func TestRedisStream(t *testing.T) {
	rdb, stream, sink := redisSink(t, 0)
	st, want := storeWithHistory(t, 10, 2)
	r := startRelay(t, relayConfig(st, sink))
	waitFor(t, 10*time.Second, "lag 0", func() bool { return sinkStatus(t, r, "stream").Lag == 0 })
	outboxtest.CheckOnce(t, "delivery", want, outboxtest.ReadStream(t, rdb, stream))
}

// TestRedisStreamRecovers: while the key holds a string, every XADD fails;
// once it is gone, everything arrives.
func TestRedisStreamRecovers(t *testing.T) {
	rdb, stream, sink := redisSink(t, 0)
	ctx := context.Background()
	if err := rdb.Set(ctx, stream, "in the way", 0).Err(); err != nil {
		t.Fatalf("SET: %v", err)
	}
	st, want := storeWithHistory(t, 10, 1)
	r := startRelay(t, relayConfig(st, sink))
	waitFor(t, 5*time.Second, "failed attempts", func() bool { return sinkStatus(t, r, "stream").Failures >= 3 })
	if err := rdb.Del(ctx, stream).Err(); err != nil {
		t.Fatalf("DEL: %v", err)
	}
	waitFor(t, 10*time.Second, "lag 0", func() bool { return sinkStatus(t, r, "stream").Lag == 0 })
	outboxtest.Check(t, want, outboxtest.ReadStream(t, rdb, stream))
}

// TestRedisStreamMaxLen: a capped stream is trimmed as it grows.
func TestRedisStreamMaxLen(t *testing.T) {
	rdb, stream, sink := redisSink(t, 10)
	st := openStore(t, nil)
	history(t, st, 150, 1)
	n := len(outboxtest.Feed(t, st))
	r := startRelay(t, relayConfig(st, sink))
	waitFor(t, 10*time.Second, "lag 0", func() bool { return sinkStatus(t, r, "stream").Lag == 0 })
	got, err := rdb.XLen(context.Background(), stream).Result()
	if err != nil {
		t.Fatalf("XLEN: %v", err)
	}
	if got >= int64(n) || got < 10 {
		t.Fatalf("stream length: got %d after %d events, want it trimmed towards 10", got, n)
	}
	entries := outboxtest.ReadStream(t, rdb, stream)
	if last := entries[len(entries)-1]; last.ID != outboxtest.Feed(t, st)[n-1].ID {
		t.Fatalf("last entry: got %s, want the last event", last.ID)
	}
}

// TestRedisStreamSentinel: a sink of a Sentinel URL delivers every event
// once, in feed order, before and after the master is killed and its
// replica promoted: it follows the new master.
func TestRedisStreamSentinel(t *testing.T) {
	tp := redistest.StartTopology(t)
	spec, err := outbox.ParseSink(tp.URL() + "&stream=events")
	if err != nil {
		t.Fatalf("ParseSink: %v", err)
	}
	sink, err := spec.Open(outbox.WebhookSecret{}, time.Now)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	st, first := storeWithHistory(t, 10, 1)
	r := startRelay(t, relayConfig(st, sink))
	waitFor(t, 10*time.Second, "lag 0", func() bool { return sinkStatus(t, r, spec.Name).Lag == 0 })
	// Delivered means replicated too, so that the kill loses none of it.
	if n, err := tp.Client(tp.MasterAddr()).Wait(context.Background(), 1, 5000).Result(); err != nil || n != 1 {
		t.Fatalf("WAIT 1: %d replicas (%v)", n, err)
	}
	outboxtest.CheckOnce(t, "before the failover", first, outboxtest.ReadStream(t, tp.Client(tp.MasterAddr()), "events"))
	_, promoted, _ := tp.Failover()
	history(t, st, 10, 1)
	all := outboxtest.Feed(t, st)
	waitFor(t, 30*time.Second, "lag 0 after the failover", func() bool { return sinkStatus(t, r, spec.Name).Lag == 0 })
	outboxtest.CheckOnce(t, "through the failover", all, outboxtest.ReadStream(t, tp.Client(promoted), "events"))
}
