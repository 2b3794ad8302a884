package main

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/lapsehq/lapse/cli"
	"github.com/lapsehq/lapse/client"
	"github.com/lapsehq/lapse/delayq"
	"github.com/lapsehq/lapse/internal/redistest"
)

// sentinelStormCoupons is how many coupons TestRedisSentinelFailover
// makes due at once: enough for the storm to drain for seconds after the
// master is killed, few enough for two busy cores.
const sentinelStormCoupons = 20_000

// TestRedisSentinelFailover: three instances on PostgreSQL with the Redis
// delay queue under Sentinel (a master, its replica, three sentinels).
// A storm falls due, and after its first expiry the master is killed
// with SIGKILL and the sentinels promote the replica. Every coupon is
// still expired exactly once, none early (the database is the
// authority); the instances say the queue failed and came back; coupons
// issued after the failover put their timers on the new master, where
// they are claimed and acked. The test logs the storm's expiry lag (the
// same storm without the kill, measured by hand, is in
// docs/production.md).
func TestRedisSentinelFailover(t *testing.T) {
	be := backends[1] // postgres
	tp := redistest.StartTopology(t)
	db := be.store(t)
	prefix := cli.QueuePrefix(db)
	ss := startShared(t, db, 3, "--redis", tp.URL(), "--batch-size", "50")
	storm := seedStorm(t, ss[0], sentinelStormCoupons, max(10*time.Second, be.stormLead*sentinelStormCoupons/stormCoupons))
	if len(queueDues(t, tp.Client(tp.MasterAddr()), prefix, "due")) == 0 {
		t.Fatalf("the master holds no item of the delay queue: it was not fed")
	}
	waitFirstExpiry(t, ss)
	old, promoted, took := tp.Failover()
	killed := time.Now().Add(-took)
	t.Logf("Sentinel promoted %s in place of %s: %s from the kill to its first write", promoted, old, took)
	drainedAfter(t, ss[0], killed, "killing the master")
	waitAllExpired(t, ss[0], len(storm))
	logLag(t, ss[0], storm)

	// Seeding reads the whole feed: under load it took more than 5 s.
	_, cs := ss[0].seed(t, 200, time.Now().Add(10*time.Second))
	after := fresh(cs, storm)
	newMaster := tp.Client(promoted)
	// Group timers fall due on the second; the item may be claimed
	// already, in flight.
	due := after[0].ExpiresAt.Truncate(time.Second).UnixMilli()
	if !slices.Contains(queueDues(t, newMaster, prefix, "*"), due) {
		t.Fatalf("the new master holds no item due with the coupons issued after the failover")
	}
	all := append(storm, after...)
	waitAllExpired(t, ss[0], len(all))
	checkAllExpiredOnce(t, ss[0], all)
	waitUntil(t, "the new master to see the items of the coupons issued after the failover claimed and acked", func() bool {
		return !slices.Contains(queueDues(t, newMaster, prefix, "*"), due)
	})
	felt := false
	for i, s := range ss {
		failing, back := logTimes(t, s, "engine: delay queue failing"), logTimes(t, s, "engine: delay queue back")
		if len(failing) == 0 {
			continue
		}
		felt = true
		if len(back) == 0 || back[len(back)-1].Before(failing[len(failing)-1]) {
			t.Fatalf("instance %d said the delay queue failed and not that it came back; log:\n%s", i, s.log.String())
		}
		t.Logf("instance %d: the delay queue failing %s after the kill, back %s after it",
			i, failing[0].Sub(killed).Round(time.Millisecond), back[len(back)-1].Sub(killed).Round(time.Millisecond))
	}
	if !felt {
		t.Fatalf("no instance said the delay queue failed: the kill was not felt")
	}
}

// logTimes are the times of s's log lines whose message begins with msg.
func logTimes(t *testing.T, s *server, msg string) []time.Time {
	t.Helper()
	var out []time.Time
	for line := range strings.Lines(s.log.String()) {
		if !strings.Contains(line, `msg="`+msg) {
			continue
		}
		v, _, _ := strings.Cut(strings.TrimPrefix(line, "time="), " ")
		at, err := time.Parse(time.RFC3339Nano, v)
		if err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		out = append(out, at)
	}
	return out
}

// fresh is cs without the coupons of old: what a seed added, as seed
// returns every coupon claimed so far.
func fresh(cs, old []client.Coupon) []client.Coupon {
	seen := map[string]bool{}
	for _, c := range old {
		seen[c.ID] = true
	}
	return slices.DeleteFunc(cs, func(c client.Coupon) bool { return seen[c.ID] })
}

// queueDues are the due times, in ms, of the items that rdb holds in
// the sets named set (due, inflight or *) of the delay queue of prefix.
func queueDues(t *testing.T, rdb *goredis.Client, prefix, set string) []int64 {
	t.Helper()
	ctx := context.Background()
	keys, err := rdb.Keys(ctx, prefix+":*:"+set).Result()
	if err != nil {
		t.Fatalf("KEYS %s:*:%s: %v", prefix, set, err)
	}
	var out []int64
	for _, k := range keys {
		members, err := rdb.ZRange(ctx, k, 0, -1).Result()
		if err != nil {
			t.Fatalf("ZRANGE %s: %v", k, err)
		}
		for _, m := range members {
			it, err := delayq.ParseMember(0, m) // the shard matters not here
			if err != nil {
				t.Fatalf("%s: %v", k, err)
			}
			out = append(out, delayq.DueMillis(it.Due))
		}
	}
	return out
}

// logLag logs the expiry lag of the coupons cs, their expiry's time in
// the feed minus their due time: median, 99th percentile and maximum.
func logLag(t *testing.T, s *server, cs []client.Coupon) {
	t.Helper()
	ev := s.expiredEvents(t)
	lags := make([]time.Duration, 0, len(cs))
	for _, c := range cs {
		lags = append(lags, ev[c.ID].Time.Sub(c.ExpiresAt))
	}
	slices.Sort(lags)
	q := func(p float64) time.Duration { return lags[int(p*float64(len(lags)-1))].Round(time.Millisecond) }
	t.Logf("expiry lag of %d coupons: p50 %s, p99 %s, max %s", len(lags), q(.5), q(.99), q(1))
}
