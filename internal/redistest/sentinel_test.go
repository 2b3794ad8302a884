package redistest_test

import (
	"context"
	"testing"

	"github.com/lapsehq/lapse/internal/redistest"
	"github.com/lapsehq/lapse/internal/redisurl"
)

// TestFailover: a write acknowledged by the master and replicated is
// read from the replica the sentinels promote when the master is killed,
// and lapse's client of the Sentinel URL follows the promotion.
func TestFailover(t *testing.T) {
	tp := redistest.StartTopology(t)
	u, err := redisurl.Parse(tp.URL())
	if err != nil {
		t.Fatalf("parse %s: %v", tp.URL(), err)
	}
	rdb := u.Client()
	defer rdb.Close()
	ctx := context.Background()
	if err := rdb.Set(ctx, "k", "before", 0).Err(); err != nil {
		t.Fatalf("SET through Sentinel: %v", err)
	}
	if n, err := tp.Client(tp.MasterAddr()).Wait(ctx, 1, 5000).Result(); err != nil || n != 1 {
		t.Fatalf("WAIT 1: %d replicas (%v)", n, err)
	}
	old, promoted, took := tp.Failover()
	t.Logf("failover from %s to %s: %s from the kill to the first write", old, promoted, took)
	if got, err := rdb.Get(ctx, "k").Result(); err != nil || got != "before" {
		t.Fatalf("GET k after the failover: %q, %v", got, err)
	}
	if err := rdb.Set(ctx, "k", "after", 0).Err(); err != nil {
		t.Fatalf("SET after the failover: %v", err)
	}
	if got, err := tp.Client(promoted).Get(ctx, "k").Result(); err != nil || got != "after" {
		t.Fatalf("the promoted master holds k=%q (%v), want after", got, err)
	}
}
