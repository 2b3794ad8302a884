package mysql_test

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver/mysql"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/store/storetest"
	"github.com/lapsehq/lapse/storetype"
)

// envInt reads a benchmark knob from the environment.
func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// BenchmarkStorm measures a storm: LAPSE_BENCH_STORM coupons (default
// 100,000) of one template due in the same instant, drained by one
// instance in batches of LAPSE_BENCH_BATCH (default 1,000, the engine's)
// through ExpireDue, with its event and counts per row; and, on a fresh
// copy of the same rows, the floor: the plain batched UPDATE … LIMIT that
// writes no event, as `lapse bench` runs it (FloorExpire). Each reports
// coupons/s, and the redo log the server wrote per coupon (a measure of
// the write work that the machine's other load does not blur;
// server-wide, so run it on an otherwise idle server).
//
//	LAPSE_TEST_MYSQL=mysql://root@127.0.0.1:3306/test LAPSE_BENCH_STORM=1000000 \
//	  go test -run '^$' -bench Storm -benchtime 1x -timeout 60m ./driver/mysql
func BenchmarkStorm(b *testing.B) {
	n, batch := envInt("LAPSE_BENCH_STORM", 100_000), envInt("LAPSE_BENCH_BATCH", 1000)
	due := t0.Add(time.Hour)
	b.Run("ExpireDue", func(b *testing.B) {
		s, db := seedStorm(b, n, due)
		redo := redoWritten(b, db)
		for b.Loop() {
			drained := 0
			for {
				d, err := s.ExpireDue(b.Context(), storetype.DueParams{Now: due, Limit: batch})
				if err != nil {
					b.Fatalf("ExpireDue: %v", err)
				}
				drained += len(d.Due)
				if len(d.Due) < batch {
					break
				}
			}
			if drained != n {
				b.Fatalf("drained %d of %d", drained, n)
			}
		}
		b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "coupons/s")
		b.ReportMetric(float64(redoWritten(b, db)-redo)/float64(n), "redo-B/coupon")
	})
	b.Run("PlainUpdate", func(b *testing.B) {
		s, db := seedStorm(b, n, due)
		redo := redoWritten(b, db)
		for b.Loop() {
			drained := int64(0)
			for {
				k, err := s.Driver().(*mysql.Driver).FloorExpire(b.Context(), due, batch)
				if err != nil {
					b.Fatalf("FloorExpire: %v", err)
				}
				drained += k
				if k < int64(batch) {
					break
				}
			}
			if drained != int64(n) {
				b.Fatalf("updated %d of %d", drained, n)
			}
		}
		b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "coupons/s")
		b.ReportMetric(float64(redoWritten(b, db)-redo)/float64(n), "redo-B/coupon")
	})
}

// redoWritten reads how many bytes of redo log the server has written.
func redoWritten(b *testing.B, db *sql.DB) int64 {
	return globalStatus(b, db, "Innodb_os_log_written")
}

// globalStatus reads a number of the server's SHOW GLOBAL STATUS.
func globalStatus(t testing.TB, db *sql.DB, name string) int64 {
	t.Helper()
	var n int64
	if err := db.QueryRowContext(t.Context(), "SHOW GLOBAL STATUS LIKE ?", name).Scan(&name, &n); err != nil {
		t.Fatalf("global status %s: %v (is the server down?)", name, err)
	}
	return n
}

// seedStorm is seedDueCoupons for a benchmark: the timer stops while it
// seeds.
func seedStorm(b *testing.B, n int, due time.Time) (*store.DB, *sql.DB) {
	b.Helper()
	b.StopTimer()
	defer b.StartTimer()
	s, db, _ := seedDueCoupons(b, n, due)
	return s, db
}

// seedDueCoupons fills a fresh database with n unused coupons of one
// template, claimed over the preceding day by random users, all due at
// due, as the store would have written them; it returns the store, SQL on
// the database, and the database's URL.
func seedDueCoupons(b testing.TB, n int, due time.Time) (*store.DB, *sql.DB, string) {
	b.Helper()
	dbURL := freshDB(b)
	s := open(b, dbURL, mysql.Options{})
	db := rawDB(b, dbURL)
	tp := storetest.Template(b, s, t0, func(tp *coupon.Template) { tp.EndsAt = due; tp.Duration = 0 })
	start := time.Now()
	const rowsPerInsert = 2000
	var rows []string
	flush := func() {
		q := "INSERT INTO coupons (id, template_id, user_id, status, claimed_at, expires_at, updated_at, version) VALUES " + strings.Join(rows, ", ")
		if _, err := db.ExecContext(b.Context(), q); err != nil {
			b.Fatalf("seed: %v", err)
		}
		rows = rows[:0]
	}
	dueText := due.Format("2006-01-02 15:04:05.000")
	for i := range n {
		claimed := due.Add(-24 * time.Hour).Add(time.Duration(i) * 24 * time.Hour / time.Duration(n))
		at := claimed.Format("2006-01-02 15:04:05.000")
		rows = append(rows, fmt.Sprintf("('%s', '%s', 'u%d', 'unused', '%s', '%s', '%s', 1)",
			store.NewID("cpn", claimed), tp.ID, rand.IntN(10*n), at, dueText, at))
		if len(rows) == rowsPerInsert {
			flush()
		}
	}
	if len(rows) > 0 {
		flush()
	}
	if _, err := db.ExecContext(b.Context(), "UPDATE template_counts SET n = ? WHERE template_id = ? AND status = 'unused' AND slot = 0", n, tp.ID); err != nil {
		b.Fatalf("seed counts: %v", err)
	}
	if _, err := db.ExecContext(b.Context(), "ANALYZE TABLE coupons"); err != nil {
		b.Fatalf("analyze: %v", err)
	}
	b.Logf("seeded %d coupons in %s", n, time.Since(start).Round(time.Millisecond))
	return s, db, dbURL
}

// BenchmarkEventSeq measures what taking event positions in commit order
// at the commit costs: concurrent one-event transactions that write their
// outbox record as the store does (numbered after the commit), against
// the same record taking its position from a counter whose row lock is
// held to the commit, as lapse did before.
//
//	LAPSE_TEST_MYSQL=mysql://root@127.0.0.1:3306/test go test -run '^$' -bench EventSeq ./driver/mysql
func BenchmarkEventSeq(b *testing.B) {
	dbURL := freshDB(b)
	open(b, dbURL, mysql.Options{})
	db := rawDB(b, dbURL)
	db.SetMaxOpenConns(64)
	body := `[["evt_x","coupon.locked","cpn_x",1793836800000,{"from":"unused","reason":"checkout","user_id":"u1","template_id":"tpl_01m71c2900fqrw3dj62gj8t6n8","order_id":"o1","expires_at":"2026-11-12T00:00:00.000Z"}]]`
	var ids atomic.Int64
	run := func(b *testing.B, write func(ctx context.Context, tx *sql.Tx, id string) error) {
		b.SetParallelism(4) // 4 × GOMAXPROCS writers
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				tx, err := db.BeginTx(b.Context(), nil)
				if err != nil {
					b.Fatalf("begin: %v", err)
				}
				if err := write(b.Context(), tx, fmt.Sprintf("evt_%d", ids.Add(1))); err != nil {
					tx.Rollback()
					b.Fatalf("write: %v", err)
				}
				if err := tx.Commit(); err != nil {
					b.Fatalf("commit: %v", err)
				}
			}
		})
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "tx/s")
	}
	b.Run("Counter", func(b *testing.B) {
		run(b, func(ctx context.Context, tx *sql.Tx, id string) error {
			res, err := tx.ExecContext(ctx, "UPDATE event_seq SET last = LAST_INSERT_ID(last + 1) WHERE id = 1")
			if err != nil {
				return err
			}
			seq, err := res.LastInsertId()
			if err != nil {
				return err
			}
			_, err = tx.ExecContext(ctx, "INSERT INTO events (seq, n, id, time, body) VALUES (?, 1, ?, ?, ?)", seq, id, t0, body)
			return err
		})
	})
	b.Run("Record", func(b *testing.B) {
		run(b, func(ctx context.Context, tx *sql.Tx, id string) error {
			_, err := tx.ExecContext(ctx, mysql.QueryText("InsertRecord", 0), 1, id, t0, body)
			return err
		})
	})
}
