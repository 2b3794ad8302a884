package redis

import (
	"context"
	"fmt"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/lapsehq/lapse/delayq"
	"github.com/lapsehq/lapse/internal/redisurl"
)

// Options configure a Queue.
type Options struct {
	// Prefix namespaces the keys; "" means "lapse".
	Prefix string
	// Lease is how long a claimed item stays in flight before another
	// claim may take it back; 0 means 30s.
	Lease time.Duration
}

// Queue is a delay queue of Items in Redis, safe for concurrent use.
type Queue struct {
	rdb    *goredis.Client
	prefix string
	lease  time.Duration
}

// Open connects to the Redis at url, a server's or Sentinel's (see
// internal/redisurl), pings it, and returns a Queue. Under Sentinel the
// queue follows the master through a failover.
func Open(ctx context.Context, url string, o Options) (*Queue, error) {
	u, err := redisurl.Parse(url)
	if err != nil {
		return nil, fmt.Errorf("delayq open: %w", err)
	}
	rdb := u.Client()
	if err := rdb.Ping(ctx).Err(); err != nil {
		rdb.Close()
		return nil, fmt.Errorf("delayq open %s: %w", u, err)
	}
	q := &Queue{rdb: rdb, prefix: o.Prefix, lease: o.Lease}
	if q.prefix == "" {
		q.prefix = "lapse"
	}
	if q.lease <= 0 {
		q.lease = 30 * time.Second
	}
	return q, nil
}

// Add puts items in their shard's due set, in one round trip. Adding an
// item already there is a no-op; adding one that is in flight makes it
// due again, so a Claim may hand it out before the first claim is acked.
func (q *Queue) Add(ctx context.Context, items []delayq.Item) error {
	if len(items) == 0 {
		return nil
	}
	pipe := q.rdb.Pipeline()
	for _, it := range items {
		ms := delayq.DueMillis(it.Due)
		pipe.ZAddNX(ctx, q.dueKey(it.Shard), goredis.Z{Score: float64(ms), Member: delayq.Member(it.Kind, ms)})
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return fmt.Errorf("delayq add %d items: %w", len(items), err)
	}
	return nil
}

// Ack removes items from their shard's in-flight set: their work committed.
func (q *Queue) Ack(ctx context.Context, items []delayq.Item) error {
	if len(items) == 0 {
		return nil
	}
	pipe := q.rdb.Pipeline()
	for _, it := range items {
		pipe.ZRem(ctx, q.inflightKey(it.Shard), delayq.Member(it.Kind, delayq.DueMillis(it.Due)))
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return fmt.Errorf("delayq ack %d items: %w", len(items), err)
	}
	return nil
}

// Next returns the earliest time at which Claim on shards may return
// something: the earliest due time in their due sets or, if sooner, the
// earliest end of an in-flight lease (an unacked item comes back then).
// It returns false if both are empty, so the caller can arm a timer
// instead of polling blindly.
func (q *Queue) Next(ctx context.Context, shards []int) (time.Time, bool, error) {
	pipe := q.rdb.Pipeline()
	cmds := make([]*goredis.ZSliceCmd, 0, 2*len(shards))
	for _, s := range shards {
		cmds = append(cmds, pipe.ZRangeWithScores(ctx, q.dueKey(s), 0, 0), pipe.ZRangeWithScores(ctx, q.inflightKey(s), 0, 0))
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return time.Time{}, false, fmt.Errorf("delayq next of %d shards: %w", len(shards), err)
	}
	var first int64
	found := false
	for _, c := range cmds {
		for _, z := range c.Val() {
			if ms := int64(z.Score); !found || ms < first {
				first, found = ms, true
			}
		}
	}
	if !found {
		return time.Time{}, false, nil
	}
	return time.UnixMilli(first), true, nil
}

// Close closes the connection.
func (q *Queue) Close() error { return q.rdb.Close() }

func (q *Queue) dueKey(shard int) string { return fmt.Sprintf("%s:{%d}:due", q.prefix, shard) }

func (q *Queue) inflightKey(shard int) string {
	return fmt.Sprintf("%s:{%d}:inflight", q.prefix, shard)
}
