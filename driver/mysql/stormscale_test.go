package mysql_test

import (
	"database/sql"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lapsehq/lapse/driver/mysql"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// TestStormThreeInstances: 60,000 coupons due at one instant, drained by
// three instances (three stores on the database, each holding its fair
// share of the shard leases) side by side in batches of 1,000, on the
// server's own buffer pool. Nothing expires a millisecond early; then
// every coupon expires exactly once (expired at version 2, one
// coupon.expired event each); no transaction of the database holds more
// than two record locks per row of a batch, and a few more; and the server
// still answers, not restarted. Before the due indexes led with the shard
// (0009_shard_due.sql) one transaction held 43,330 record locks here, and
// the instances' batches came back short, their rows held by each other:
// 18,675 of 60,000 expired when every instance thought it was done.
func TestStormThreeInstances(t *testing.T) {
	const n, batch, instances = 60_000, 1000, 3
	ctx := t.Context()
	due := t0.Add(time.Hour)
	first, db, dbURL := seedDueCoupons(t, n, due)
	uptime := globalStatus(t, db, "Uptime")
	stores := []*store.DB{first}
	for range instances - 1 {
		stores = append(stores, open(t, dbURL, mysql.Options{}))
	}
	leases := fairLeases(t, stores)
	for i, s := range stores {
		d, err := s.ExpireDue(ctx, storetype.DueParams{Now: due.Add(-time.Millisecond), Limit: batch, Leases: leases[i]})
		if err != nil {
			t.Fatalf("early ExpireDue: %v", err)
		}
		if len(d.Due) > 0 {
			t.Fatalf("instance %d expired %d coupons a millisecond before they were due", i, len(d.Due))
		}
	}

	maxLocks := watchLocks(t, db)
	start := time.Now()
	var (
		wg      sync.WaitGroup
		expired atomic.Int64
		errs    = make(chan error, instances)
	)
	for i, s := range stores {
		wg.Go(func() {
			for {
				d, err := s.ExpireDue(ctx, storetype.DueParams{Now: due, Limit: batch, Leases: leases[i]})
				if err != nil {
					errs <- err
					return
				}
				expired.Add(int64(len(d.Due)))
				if len(d.Due) < batch {
					return
				}
			}
		})
	}
	wg.Wait()
	took := time.Since(start)
	close(errs)
	for err := range errs {
		t.Fatalf("ExpireDue: %v", err)
	}
	locks := maxLocks()
	t.Logf("%d instances expired %d coupons in %s (%.0f/s); at most %d record locks in one transaction",
		instances, expired.Load(), took.Round(time.Millisecond), float64(expired.Load())/took.Seconds(), locks)

	if got := expired.Load(); got != n {
		t.Fatalf("drains expired %d coupons, want %d", got, n)
	}
	var once int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM coupons WHERE status = 'expired' AND version = 2").Scan(&once); err != nil {
		t.Fatalf("count expired: %v", err)
	}
	if once != n {
		t.Fatalf("%d coupons expired once (version 2), want %d", once, n)
	}
	subjects := map[string]bool{}
	for after := int64(0); ; {
		evs, err := first.Events(ctx, store.EventsParams{After: after, Limit: 10_000})
		if err != nil {
			t.Fatalf("Events: %v", err)
		}
		if len(evs) == 0 {
			break
		}
		for _, e := range evs {
			if e.Type != "coupon.expired" {
				continue
			}
			if subjects[e.Subject] {
				t.Fatalf("coupon %s expired twice in the feed", e.Subject)
			}
			subjects[e.Subject] = true
		}
		after = evs[len(evs)-1].Seq
	}
	if len(subjects) != n {
		t.Fatalf("%d coupon.expired events, want %d", len(subjects), n)
	}
	if locks > 2*batch+100 {
		t.Fatalf("a transaction held %d record locks, want at most %d: two a row of a batch of %d, and its writes", locks, 2*batch+100, batch)
	}
	if now := globalStatus(t, db, "Uptime"); now < uptime {
		t.Fatalf("the server restarted during the storm (uptime %d s, was %d s)", now, uptime)
	}
}

// fairLeases has each store take its fair share of the shard leases,
// under its own holder name, and returns each one's leases once they are
// disjoint and cover every shard.
func fairLeases(t *testing.T, stores []*store.DB) [][]storetype.Lease {
	t.Helper()
	holders := []string{"a", "b", "c", "d", "e", "f", "g", "h"}[:len(stores)]
	out := make([][]storetype.Lease, len(stores))
	for range 5 {
		held := 0
		for i, s := range stores {
			ls, err := s.Lease(t.Context(), store.LeaseParams{Holder: holders[i], TTL: time.Minute})
			if err != nil {
				t.Fatalf("Lease(%s): %v", holders[i], err)
			}
			out[i] = ls
			held += len(ls)
		}
		if held == storetype.Shards && len(out[len(out)-1]) == store.FairShare(holders, holders[len(holders)-1]) {
			return out
		}
	}
	t.Fatalf("no fair split of the shards: %v", out)
	return nil
}

// watchLocks polls, every 20 ms until t ends or the function it returns
// is called, the record locks each open transaction of db's database
// holds (information_schema.INNODB_TRX, refreshed by the server at most
// every 100 ms), and that function returns the most seen. It samples: a
// run may see no batch open (TestClaimLocksBounded holds one open to
// count its locks for sure).
func watchLocks(t *testing.T, db *sql.DB) func() int64 {
	t.Helper()
	var (
		most int64
		stop = make(chan struct{})
		done = make(chan struct{})
	)
	go func() {
		defer close(done)
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
			var n, structs int64
			err := db.QueryRowContext(t.Context(), trxLocks).Scan(&n, &structs)
			if err != nil {
				t.Logf("watch locks: %v", err)
			}
			if err == nil && n > most {
				most = n
			}
		}
	}()
	var once sync.Once
	get := func() int64 {
		once.Do(func() { close(stop); <-done })
		return most
	}
	t.Cleanup(func() { get() })
	return get
}
