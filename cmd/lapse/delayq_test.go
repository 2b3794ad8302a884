package main

import (
	"context"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/lapsehq/lapse/outbox/outboxtest"
	goredis "github.com/redis/go-redis/v9"
)

// startRedis runs a Redis server of the test's own, one it may flush and
// kill without touching the Redis other tests share; it needs
// redis-server, as CI has it, and skips without LAPSE_TEST_REDIS.
func startRedis(t *testing.T) (*exec.Cmd, *goredis.Client, string) {
	t.Helper()
	if os.Getenv("LAPSE_TEST_REDIS") == "" {
		t.Skip("LAPSE_TEST_REDIS unset: no Redis here")
	}
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Fatalf("redis-server: %v", err)
	}
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
	cs := seedStorm(t, ss[0], be.stormLead)
	if n, err := rdb.DBSize(t.Context()).Result(); err != nil || n == 0 {
		t.Fatalf("redis holds %d keys (%v): the delay queue was not fed", n, err)
	}
	waitFirstExpiry(t, ss[0])
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
