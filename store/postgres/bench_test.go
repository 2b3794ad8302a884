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
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/store/postgres"
	"github.com/lapsehq/lapse/store/postgres/pgtest"
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
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			ctx := b.Context()
			s := open(b, pgtest.SchemaURL(b), postgres.Options{MaxConns: int32(workers)})
			ids := make([]string, workers)
			for w := range ids {
				c, err := s.Claim(ctx, store.ClaimParams{TemplateID: template(b, s).ID, UserID: "u", Now: t0})
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
		})
	}
}

// BenchmarkFeedTail isolates what taking feed positions in commit order
// costs: a minimal transaction (one row updated, one event) from many
// goroutines, its event's position taken with the store's AppendEvents
// (a row lock held to the commit), or from a sequence, which is what the
// lock buys correctness over.
func BenchmarkFeedTail(b *testing.B) {
	const sequence = `INSERT INTO events (seq, id, type, subject, time, data)
		SELECT nextval('bench_seq'), e.id, e.type, e.subject, e.time, e.data::json
		FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[], $5::text[]) AS e(id, type, subject, time, data)`
	for _, positions := range []struct{ name, sql string }{
		{"counter", postgres.QueryText("AppendEvents")},
		{"sequence", sequence},
	} {
		for _, workers := range []int{1, 8, 32} {
			b.Run(fmt.Sprintf("positions=%s/workers=%d", positions.name, workers), func(b *testing.B) {
				ctx := b.Context()
				u := pgtest.SchemaURL(b)
				open(b, u, postgres.Options{})
				conn := pgtest.Connect(b, u)
				if _, err := conn.Exec(ctx, "CREATE SEQUENCE bench_seq"); err != nil {
					b.Fatal(err)
				}
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
						_, err := tx.Exec(ctx, positions.sql, []string{store.NewID("evt", t0)}, []string{"bench"},
							[]string{"s"}, []time.Time{t0}, []string{"{}"})
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
// engine drains), and, on the same rows of a fresh copy, by plain UPDATEs
// that only set the status: the floor the store is measured against.
// Reports expired/s. Run it with -benchtime=1x; LAPSE_STORM sets the size.
func BenchmarkStorm(b *testing.B) {
	n := stormSize(b)
	plain := func(limit int) string {
		return fmt.Sprintf(`UPDATE coupons SET status = 'expired', updated_at = $1, version = version + 1
			WHERE id = ANY(ARRAY(SELECT id FROM coupons WHERE status = 'unused' AND expires_at <= $1 LIMIT %d))`, limit)
	}
	cases := []struct {
		name  string
		drain func(ctx context.Context, s *postgres.Store, conn *pgx.Conn, now time.Time) (int, error)
	}{
		{"ExpireDue/batch=1000/drainers=1", expireDue(1000, 1)},
		{"ExpireDue/batch=2000/drainers=1", expireDue(2000, 1)},
		{"ExpireDue/batch=1000/drainers=3", expireDue(1000, 3)},
		{"plain-update/batch=1000", updates(plain(1000))},
		{"plain-update/batch=2000", updates(plain(2000))},
		{"single-update", updates(`UPDATE coupons SET status = 'expired', updated_at = $1, version = version + 1
			WHERE status = 'unused' AND expires_at <= $1`)},
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
				b.ReportMetric(float64(n)/elapsed.Seconds(), "expired/s")
			}
		})
	}
}

// expireDue drains with ExpireDue from drainers goroutines, each until it
// finds nothing left, and counts the events written.
func expireDue(limit, drainers int) func(context.Context, *postgres.Store, *pgx.Conn, time.Time) (int, error) {
	return func(ctx context.Context, s *postgres.Store, conn *pgx.Conn, now time.Time) (int, error) {
		var (
			wg   sync.WaitGroup
			errs = make(chan error, drainers)
		)
		for range drainers {
			wg.Go(func() {
				for {
					d, err := s.ExpireDue(ctx, store.DueParams{Now: now, Limit: limit})
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
		err := conn.QueryRow(ctx, "SELECT count(*) FROM events WHERE type = $1", store.EventCouponExpired).Scan(&events)
		return events, err
	}
}

// updates runs the statement until it changes no row, and counts the rows.
func updates(sql string) func(context.Context, *postgres.Store, *pgx.Conn, time.Time) (int, error) {
	return func(ctx context.Context, _ *postgres.Store, conn *pgx.Conn, now time.Time) (int, error) {
		total := 0
		for {
			tag, err := conn.Exec(ctx, sql, now)
			if err != nil || tag.RowsAffected() == 0 {
				return total, err
			}
			total += int(tag.RowsAffected())
		}
	}
}
