package postgres_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver/postgres"
	"github.com/lapsehq/lapse/driver/postgres/pgtest"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/store/storetest"
	"github.com/lapsehq/lapse/storetype"
)

// parallel runs fn(worker) on workers goroutines until they have made b.N
// calls between them, and reports the rate as tx/s.
func parallel(b *testing.B, workers int, fn func(worker, i int) error) {
	b.Helper()
	var (
		next atomic.Int64
		wg   sync.WaitGroup
		errs = make(chan error, workers)
	)
	b.ResetTimer()
	for w := range workers {
		wg.Go(func() {
			for i := 0; next.Add(1) <= int64(b.N); i++ {
				if err := fn(w, i); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "tx/s")
}

// BenchmarkTransitions: single-coupon transitions (a lock, then its
// unlock, and again) from many goroutines, each on its own coupon of its
// own template, so that what they share is the feed's commit-order tail.
func BenchmarkTransitions(b *testing.B) {
	for _, workers := range []int{1, 8, 32} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) { transitions(b, pgtest.SchemaURL(b), workers) })
	}
}

// transitions runs BenchmarkTransitions' transitions on the store at url
// from workers goroutines.
func transitions(b *testing.B, url string, workers int) {
	ctx := b.Context()
	s := open(b, url, postgres.Options{MaxConns: int32(workers)})
	ids := make([]string, workers)
	for w := range ids {
		c, err := s.Claim(ctx, store.ClaimParams{TemplateID: storetest.Template(b, s, t0, nil).ID, UserID: "u", Now: t0})
		if err != nil {
			b.Fatalf("Claim: %v", err)
		}
		ids[w] = c.ID
	}
	now := t0.Add(time.Hour)
	parallel(b, workers, func(w, i int) error {
		p := store.TransitionParams{CouponID: ids[w], Action: coupon.Lock, OrderID: "o", LockTTL: time.Minute, Now: now}
		if i%2 == 1 {
			p.Action = coupon.Unlock
		}
		_, err := s.Transition(ctx, p)
		return err
	})
}

// BenchmarkFeedTail isolates what taking feed positions in commit order
// costs: a minimal transaction (one row updated, one event) from many
// goroutines, its record written as the store writes it (a position
// given after the commit), or with a position taken from a counter whose
// row lock is held to the commit, as lapse did before.
func BenchmarkFeedTail(b *testing.B) {
	const counter = `WITH taken AS (UPDATE event_seq SET last = last + $1 RETURNING last)
		INSERT INTO events (seq, n, id, time, body) SELECT taken.last, $1, $2, $3, $4 FROM taken`
	for _, positions := range []struct{ name, sql string }{
		{"counter", counter},
		{"record", postgres.QueryText("InsertRecord")},
	} {
		for _, workers := range []int{1, 8, 32} {
			b.Run(fmt.Sprintf("positions=%s/workers=%d", positions.name, workers), func(b *testing.B) {
				ctx := b.Context()
				u := pgtest.SchemaURL(b)
				open(b, u, postgres.Options{})
				conn := pgtest.Connect(b, u)
				seed(b, conn, "cpn_", "tpl", workers, "unused", t0, 0)
				pool, err := pgxpool.New(ctx, u+"&pool_max_conns="+strconv.Itoa(workers))
				if err != nil {
					b.Fatal(err)
				}
				defer pool.Close()
				parallel(b, workers, func(w, i int) error {
					return pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
						if _, err := tx.Exec(ctx, "UPDATE coupons SET version = version + 1 WHERE id = $1", fmt.Sprintf("cpn_%010d", w+1)); err != nil {
							return err
						}
						_, err := tx.Exec(ctx, positions.sql, 1, store.NewID("evt", t0), t0, `[]`)
						return err
					})
				})
			})
		}
	}
}

// stormSize is how many coupons BenchmarkStorm makes due in one second:
// LAPSE_STORM, or 100,000.
func stormSize(b *testing.B) int {
	if n, err := strconv.Atoi(os.Getenv("LAPSE_STORM")); err == nil && n > 0 {
		return n
	}
	return 100_000
}

// BenchmarkStorm: a storm of coupons all due at the same instant, drained
// by the store's ExpireDue (each row with its event and counts, as the
// engine drains) from one or several goroutines, and, on the same rows of
// a fresh copy, by `lapse bench`'s floor (batched UPDATEs that only set the
// status) and naive drain (one UPDATE). Reports expired/s and the WAL
// written per coupon. Run it with -benchtime=1x; LAPSE_STORM sets the
// size. `lapse bench storm --store postgres://…` measures the same drains
// under a user load; this adds concurrent drainers.
func BenchmarkStorm(b *testing.B) {
	n := stormSize(b)
	cases := []struct {
		name  string
		drain func(ctx context.Context, s *store.DB, conn *pgx.Conn, now time.Time) (int, error)
	}{
		{"ExpireDue/batch=1000/drainers=1", expireDue(1000, 1)},
		{"ExpireDue/batch=2000/drainers=1", expireDue(2000, 1)},
		{"ExpireDue/batch=1000/drainers=3", expireDue(1000, 3)},
		{"floor/batch=1000", floor(1000)},
		{"floor/batch=2000", floor(2000)},
		{"naive", func(ctx context.Context, s *store.DB, _ *pgx.Conn, now time.Time) (int, error) {
			n, err := s.Driver().(*postgres.Driver).NaiveExpire(ctx, now)
			return int(n), err
		}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				b.StopTimer()
				ctx := b.Context()
				u := pgtest.SchemaURL(b)
				s := open(b, u, postgres.Options{})
				conn := pgtest.Connect(b, u)
				seed(b, conn, "cpn_", "tpl_storm", n, "unused", t0, 0)
				if _, err := conn.Exec(ctx, "VACUUM ANALYZE coupons"); err != nil {
					b.Fatal(err)
				}
				var lsn string
				if err := conn.QueryRow(ctx, "SELECT pg_current_wal_lsn()::text").Scan(&lsn); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				start := time.Now()
				expired, err := c.drain(ctx, s, conn, t0.Add(time.Second))
				elapsed := time.Since(start)
				b.StopTimer()
				if err != nil {
					b.Fatal(err)
				}
				if expired != n {
					b.Fatalf("expired %d, want %d", expired, n)
				}
				var wal float64
				if err := conn.QueryRow(ctx, "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1::pg_lsn)", lsn).Scan(&wal); err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(n)/elapsed.Seconds(), "expired/s")
				// The server's, so with whatever else it wrote meanwhile.
				b.ReportMetric(wal/float64(n), "WAL-B/coupon")
			}
		})
	}
}

// expireDue drains with ExpireDue from drainers goroutines, each until it
// finds nothing left, and counts the events written.
func expireDue(limit, drainers int) func(context.Context, *store.DB, *pgx.Conn, time.Time) (int, error) {
	return func(ctx context.Context, s *store.DB, conn *pgx.Conn, now time.Time) (int, error) {
		var (
			wg   sync.WaitGroup
			errs = make(chan error, drainers)
		)
		for range drainers {
			wg.Go(func() {
				for {
					d, err := s.ExpireDue(ctx, storetype.DueParams{Now: now, Limit: limit})
					if err != nil {
						errs <- err
						return
					}
					if len(d.Due) == 0 {
						return
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			return 0, err
		}
		var events int
		err := conn.QueryRow(ctx, "SELECT coalesce(sum(n), 0) FROM events").Scan(&events)
		return events, err
	}
}

// floor runs the floor drain until it finds nothing left, and counts the
// rows.
func floor(limit int) func(context.Context, *store.DB, *pgx.Conn, time.Time) (int, error) {
	return func(ctx context.Context, s *store.DB, _ *pgx.Conn, now time.Time) (int, error) {
		total := 0
		for {
			n, err := s.Driver().(*postgres.Driver).FloorExpire(ctx, now, limit)
			if err != nil || n == 0 {
				return total, err
			}
			total += int(n)
		}
	}
}
