package redis_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"
	"go.uber.org/goleak"

	"github.com/lapsehq/lapse/delayq"
	"github.com/lapsehq/lapse/delayq/redis"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// t0 is when the test items fall due.
var t0 = time.Date(2026, 11, 11, 0, 0, 0, 0, time.UTC)

// fixture is a Queue on a prefix of its own and a plain client of the same
// Redis to look at the keys.
type fixture struct {
	q      *redis.Queue
	rdb    *goredis.Client
	url    string
	prefix string
	lease  time.Duration
}

// setup opens a Queue of LAPSE_TEST_REDIS on a fresh prefix with lease,
// skipping t if the variable is unset. The prefix's keys are deleted when
// t ends.
func setup(t testing.TB, lease time.Duration) *fixture {
	t.Helper()
	url := os.Getenv("LAPSE_TEST_REDIS")
	if url == "" {
		t.Skip("LAPSE_TEST_REDIS unset: no Redis to test the delay queue against")
	}
	opts, err := goredis.ParseURL(url)
	if err != nil {
		t.Fatalf("LAPSE_TEST_REDIS: %v", err)
	}
	f := &fixture{
		rdb:    goredis.NewClient(opts),
		url:    url,
		prefix: fmt.Sprintf("lapse-test-%s-%x", strings.ReplaceAll(t.Name(), "/", "-"), rand.Uint64()),
		lease:  lease,
	}
	t.Cleanup(func() {
		f.clear(t)
		f.rdb.Close()
	})
	f.q = f.open(t)
	return f
}

// open opens another Queue on f's prefix, closed when t ends.
func (f *fixture) open(t testing.TB) *redis.Queue {
	t.Helper()
	q, err := redis.Open(context.Background(), f.url, redis.Options{Prefix: f.prefix, Lease: f.lease})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { q.Close() })
	return q
}

// clear deletes every key of f's prefix.
func (f *fixture) clear(t testing.TB) {
	t.Helper()
	ctx := context.Background()
	keys, err := f.rdb.Keys(ctx, f.prefix+":*").Result()
	if err != nil {
		t.Fatalf("KEYS %s:*: %v", f.prefix, err)
	}
	if len(keys) > 0 {
		if err := f.rdb.Del(ctx, keys...).Err(); err != nil {
			t.Fatalf("DEL: %v", err)
		}
	}
}

// key is the name of shard's set (due or inflight).
func (f *fixture) key(shard int, set string) string {
	return fmt.Sprintf("%s:{%d}:%s", f.prefix, shard, set)
}

// card is the size of shard's set.
func (f *fixture) card(t testing.TB, shard int, set string) int64 {
	t.Helper()
	n, err := f.rdb.ZCard(context.Background(), f.key(shard, set)).Result()
	if err != nil {
		t.Fatalf("ZCARD %s: %v", f.key(shard, set), err)
	}
	return n
}

// add adds items.
func (f *fixture) add(t testing.TB, items ...delayq.Item) {
	t.Helper()
	if err := f.q.Add(context.Background(), items); err != nil {
		t.Fatalf("add: %v", err)
	}
}

// ack acks items.
func (f *fixture) ack(t testing.TB, items ...delayq.Item) {
	t.Helper()
	if err := f.q.Ack(context.Background(), items); err != nil {
		t.Fatalf("ack: %v", err)
	}
}

// claim claims up to limit items of shard at now.
func (f *fixture) claim(t testing.TB, shard int, now time.Time, limit int) []delayq.Item {
	t.Helper()
	items, err := f.q.Claim(context.Background(), shard, now, limit)
	if err != nil {
		t.Fatalf("claim shard %d at %v: %v", shard, now, err)
	}
	return items
}

// at is an item of kind k in shard 0 due d after t0.
func at(k string, d time.Duration) delayq.Item {
	return delayq.Item{Kind: k, Due: t0.Add(d)}
}
