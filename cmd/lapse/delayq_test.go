package main

import (
	"context"
	"maps"
	"net"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/lapsehq/lapse/cli"
	amqpq "github.com/lapsehq/lapse/delayq/amqp"
	"github.com/lapsehq/lapse/delayq/amqp/amqptest"
	"github.com/lapsehq/lapse/internal/redistest"
	"github.com/lapsehq/lapse/outbox/outboxtest"
)

// startRedis runs a Redis server of the test's own, one it may flush and
// kill without touching the Redis other tests share; it needs
// redis-server, as CI has it, and skips without LAPSE_TEST_REDIS.
func startRedis(t *testing.T) (*exec.Cmd, *goredis.Client, string) {
	t.Helper()
	bin := redistest.Bin(t)
	addr := outboxtest.FreeAddr(t)
	_, port, _ := net.SplitHostPort(addr)
	cmd := exec.Command(bin, "--bind", "127.0.0.1", "--port", port, "--save", "", "--appendonly", "no")
	if err := cmd.Start(); err != nil {
		t.Fatalf("start redis-server: %v", err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	rdb := goredis.NewClient(&goredis.Options{Addr: addr})
	t.Cleanup(func() { rdb.Close() })
	waitUntil(t, "redis-server to answer", func() bool { return rdb.Ping(context.Background()).Err() == nil })
	return cmd, rdb, "redis://" + addr + "/0"
}

// TestRedisLostMidStorm: three instances on PostgreSQL with the Redis
// delay queue; mid-storm Redis is flushed, then killed. Every coupon is
// still expired exactly once, none early: Redis was a hint.
func TestRedisLostMidStorm(t *testing.T) {
	be := backends[1] // postgres
	redis, rdb, url := startRedis(t)
	ss := startShared(t, be.store(t), 3, "--redis", url, "--batch-size", "50")
	cs := seedStorm(t, ss[0], stormCoupons, be.stormLead)
	if n, err := rdb.DBSize(t.Context()).Result(); err != nil || n == 0 {
		t.Fatalf("redis holds %d keys (%v): the delay queue was not fed", n, err)
	}
	waitFirstExpiry(t, ss)
	if err := rdb.FlushAll(t.Context()).Err(); err != nil {
		t.Fatalf("FLUSHALL: %v", err)
	}
	time.Sleep(100 * time.Millisecond)
	if err := redis.Process.Kill(); err != nil {
		t.Fatalf("kill redis-server: %v", err)
	}
	killed := time.Now()
	redis.Wait()
	waitAllExpired(t, ss[0], len(cs))
	checkAllExpiredOnce(t, ss[0], cs)
	drainedAfter(t, ss[0], killed, "killing Redis")
	for i, s := range ss {
		if !strings.Contains(s.log.String(), "delay queue failing") {
			t.Fatalf("instance %d did not say the delay queue failed; log:\n%s", i, s.log.String())
		}
	}
}

// TestAMQPDelayStorm: three instances with the RabbitMQ delay queue,
// amqpStormCoupons coupons due at one instant, while nothing happens to
// the broker, while its queues are purged mid-storm, while it closes
// lapse's connections as the storm's hints wait in its queues, and while
// one instance is killed mid-storm: every coupon is expired exactly once,
// none early. The broker is shared with other tests: only this test's
// queues are purged, and only its connections closed.
//
// The broker closes the connections before the storm falls due, not
// after its first expiry: rabbitmqctl takes seconds, and on a quiet
// machine the storm was over before the connections closed.
func TestAMQPDelayStorm(t *testing.T) {
	for _, sc := range []struct {
		name string
		// beforeDue acts as soon as the storm is seeded and requires the
		// act to end before the storm falls due, instead of acting after
		// the storm's first expiry.
		beforeDue bool
		// prepare readies, before the storm, act, done mid-storm to the
		// instances ss, whose queues are prefixed prefix on the broker at
		// url, which says what it did, and check, run once every coupon
		// expired, if not nil.
		prepare func(t *testing.T, ss []*server, url, prefix string) (act func() string, check func())
	}{
		{"calm", false, nil},
		{"purged", false, func(t *testing.T, ss []*server, url, prefix string) (func() string, func()) {
			queues := slices.Collect(maps.Keys(amqptest.Queues(t, prefix)))
			return func() string {
				amqptest.Purge(t, url, queues)
				return "purging the delay queues"
			}, nil
		}},
		{"closed", true, func(t *testing.T, ss []*server, url, prefix string) (func() string, func()) {
			pids := amqptest.Connections(t, amqpq.ConnectionName(prefix))
			if len(pids) != len(ss) {
				t.Fatalf("the broker lists %d connections of the delay queue, want one per instance", len(pids))
			}
			act := func() string {
				amqptest.CloseConnections(t, pids)
				return "the broker closing lapse's connections"
			}
			reconnected := func() {
				waitUntil(t, "the instances to connect again", func() bool {
					now := amqptest.Connections(t, amqpq.ConnectionName(prefix))
					return len(now) == len(ss) && !slices.ContainsFunc(now, func(p string) bool { return slices.Contains(pids, p) })
				})
			}
			return act, reconnected
		}},
		{"killed", false, func(t *testing.T, ss []*server, url, prefix string) (func() string, func()) {
			return func() string {
				if err := ss[2].cmd.Process.Kill(); err != nil {
					t.Fatalf("SIGKILL: %v", err)
				}
				ss[2].cmd.Wait()
				return "the kill"
			}, nil
		}},
	} {
		t.Run(sc.name, func(t *testing.T) {
			onShared(t, func(t *testing.T, be backend) {
				url := amqptest.URL(t)
				db := be.store(t)
				prefix := cli.QueuePrefix(db)
				amqptest.Cleanup(t, url, prefix)
				ss := startShared(t, db, 3, "--amqp-delay", url, "--batch-size", "50")
				n := amqpStormCoupons(t)
				// At least 20 s: under load, seeding 20,000 coupons took
				// nearly 10 s, and the hints had left the TTL queues
				// before they were counted.
				lead := max(20*time.Second, be.stormLead*time.Duration(n)/stormCoupons)
				if sc.beforeDue {
					// rabbitmqctl takes seconds to close connections, and
					// under load it outlasted a 10 s lead, and once, with
					// the seeding, 30 s.
					lead += 45 * time.Second
				}
				cs := seedStorm(t, ss[0], n, lead)
				if n := queued(t, prefix); n == 0 {
					t.Fatalf("the delay queues hold nothing before the storm: they were not fed")
				}
				var act func() string
				var check func()
				if sc.prepare != nil {
					act, check = sc.prepare(t, ss, url, prefix)
				}
				var what string
				var done time.Time
				switch {
				case act != nil && sc.beforeDue:
					what, done = act(), time.Now()
					if !done.Before(cs[0].ExpiresAt) {
						t.Fatalf("%s outlasted the storm's lead: nothing was tested", what)
					}
				case act != nil:
					waitFirstExpiry(t, ss)
					what, done = act(), time.Now()
				}
				waitAllExpired(t, ss[0], len(cs))
				checkAllExpiredOnce(t, ss[0], cs)
				if act != nil {
					drainedAfter(t, ss[0], done, what)
				}
				if check != nil {
					check()
				}
			})
		})
	}
}

// queued is how many messages the delay queues of prefix hold.
func queued(t *testing.T, prefix string) int {
	t.Helper()
	n := 0
	for _, m := range amqptest.Queues(t, prefix) {
		n += m
	}
	return n
}

// amqpStormCoupons is how many coupons TestAMQPDelayStorm makes due at
// once: 20,000, so that its eight storms stay within a few minutes on
// two busy cores beside CI's other packages, or LAPSE_TEST_AMQP_STORM
// (100000 for the storm, run by hand).
func amqpStormCoupons(t *testing.T) int {
	t.Helper()
	v := os.Getenv("LAPSE_TEST_AMQP_STORM")
	if v == "" {
		return 20_000
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		t.Fatalf("LAPSE_TEST_AMQP_STORM: want a count of coupons, got %q", v)
	}
	return n
}
