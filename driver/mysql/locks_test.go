package mysql_test

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/mysql"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/storetype"
)

// TestClaimLocksBounded: a drain batch's locking read holds the rows it
// claims, not the due range it walks. Every shard has 200 rows of each
// kind past due; a drain batch of 20 in a transaction of the driver, held
// open, may hold two record locks per row claimed (its due index entry
// and its primary key record) and a couple more, whatever the other
// shards hold: of shard 3, and of every shard, whose claims run as one
// statement (see union), so that the batch sends the same statements
// either way. Before 0009_shard_due.sql the claim of one shard walked the
// interleaved due range of all 16 and held every entry it passed, index
// and row: 683 record locks here, and in a storm of a million rows enough
// lock heaps to stop MariaDB.
func TestClaimLocksBounded(t *testing.T) {
	dbURL := freshDB(t)
	ctx := t.Context()
	d := openDriver(t, dbURL, mysql.Options{})
	db := rawDB(t, dbURL)
	seedDue(t, db, 200*16)
	const limit, slack = 20, 2
	for _, leases := range []storetype.Leases{{{Shard: 3}}, nil} {
		p := storetype.DueParams{Now: t0, Limit: limit, Leases: leases}
		for _, c := range dueReads(p) {
			tx, err := d.Begin(ctx, false)
			if err != nil {
				t.Fatalf("begin: %v", err)
			}
			sent := mysql.CountStatements(tx)
			due, err := c.read(ctx, tx)
			if err != nil || len(due) != limit {
				t.Fatalf("%s of shards %v: %d rows, %v; want %d", c.name, leases.Shards(), len(due), err, limit)
			}
			if sent() != c.statements {
				t.Errorf("%s of shards %v: %d statements, want %d", c.name, leases.Shards(), sent(), c.statements)
			}
			rows, structs := locksHeld(t, db)
			tx.Rollback()
			t.Logf("%s of %d shards: %d record locks in %d lock structs", c.name, len(leases.Shards()), rows, structs)
			if rows > 2*limit+slack {
				t.Errorf("%s of shards %v: a batch of %d holds %d record locks, want at most %d", c.name, leases.Shards(), limit, rows, 2*limit+slack)
			}
		}
	}
}

// dueRead is one drain's claim of what is due: the keys of the rows it
// read, in statements statements (the count of each shard's due rows, the
// claim, and for expiry the change of the rows claimed).
type dueRead struct {
	name       string
	statements int
	read       func(context.Context, driver.ExecutorTx) ([]string, error)
}

// dueReads are the claims of the four drains at p.
func dueReads(p storetype.DueParams) []dueRead {
	coupons := func(cs []coupon.Coupon, err error) ([]string, error) {
		return keys(cs, err, func(c coupon.Coupon) string { return c.ID })
	}
	return []dueRead{
		{"ExpireDue", 3, func(ctx context.Context, tx driver.ExecutorTx) ([]string, error) {
			return coupons(tx.ExpireDue(ctx, p))
		}},
		{"LocksDue", 2, func(ctx context.Context, tx driver.ExecutorTx) ([]string, error) { return coupons(tx.LocksDue(ctx, p)) }},
		{"OrdersDue", 2, func(ctx context.Context, tx driver.ExecutorTx) ([]string, error) {
			os, err := tx.OrdersDue(ctx, p)
			return keys(os, err, func(o order.Order) string { return o.ID })
		}},
		{"RemindersDue", 2, func(ctx context.Context, tx driver.ExecutorTx) ([]string, error) {
			rs, err := tx.RemindersDue(ctx, p)
			return keys(rs, err, func(r driver.PlannedReminder) string { return fmt.Sprint(r.ID) })
		}},
	}
}

// keys maps rows read to their keys.
func keys[T any](rows []T, err error, key func(T) string) ([]string, error) {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = key(r)
	}
	return out, err
}

// seedDue writes n rows past due of each due kind, over every shard:
// unused coupons, locked coupons, unpaid orders and planned reminders.
func seedDue(t *testing.T, db *sql.DB, n int) {
	t.Helper()
	at := t0.Add(-time.Hour).Format("2006-01-02 15:04:05.000")
	var unused, locked, orders, reminders []string
	for i := range n {
		unused = append(unused, fmt.Sprintf("('cpn_u%06d', 'tpl_x', 'u%d', 'unused', '%s', '%s', NULL, NULL, '%s', 1)", i, i, at, at, at))
		locked = append(locked, fmt.Sprintf("('cpn_l%06d', 'tpl_x', 'u%d', 'locked', '%s', '%s', 'o', '%s', '%s', 2)", i, i, at, at, at, at))
		orders = append(orders, fmt.Sprintf("('ord_%06d', 'u%d', 'unpaid', '[]', '[]', 100, 0, 100, '%s', '%s', '%s', 1)", i, i, at, at, at))
		reminders = append(reminders, fmt.Sprintf("('u%d', 3600000, '%s', '%s', '%s', 'planned')", i, at, at, at))
	}
	insert(t, db, "INSERT INTO coupons (id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version) VALUES ", append(unused, locked...))
	insert(t, db, "INSERT INTO orders (id, user_id, status, items, coupon_ids, total, discount, amount_due, deadline, created_at, updated_at, version) VALUES ", orders)
	insert(t, db, "INSERT INTO reminders (user_id, lead_ms, first_at, last_at, due_at, status) VALUES ", reminders)
	if _, err := db.ExecContext(t.Context(), "ANALYZE TABLE coupons, orders, reminders"); err != nil {
		t.Fatalf("analyze: %v", err)
	}
}

// trxLocks reads the most record locks an open transaction of the
// session's database holds, and the most lock structs.
const trxLocks = `SELECT COALESCE(MAX(trx.trx_rows_locked), 0), COALESCE(MAX(trx.trx_lock_structs), 0)
	FROM information_schema.INNODB_TRX trx
	JOIN information_schema.PROCESSLIST p ON p.ID = trx.trx_mysql_thread_id
	WHERE p.DB = DATABASE()`

// locksHeld reads, from information_schema.INNODB_TRX, the most record
// locks an open transaction of db's database holds, and that
// transaction's lock structs. The server refreshes the table from the
// live transactions at most every 100 ms: it waits that long first, so
// that it does not read an earlier state.
func locksHeld(t *testing.T, db *sql.DB) (rows, structs int64) {
	t.Helper()
	time.Sleep(200 * time.Millisecond)
	err := db.QueryRowContext(t.Context(), trxLocks).Scan(&rows, &structs)
	if err != nil {
		t.Fatalf("INNODB_TRX: %v", err)
	}
	return rows, structs
}

// TestClaimPassesHeldRows: a drain batch takes the due rows after those
// another open transaction holds, at once: rows held at the head of a
// shard's due range (an instance paused in the middle of a batch) do not
// stop the others' drains of it. So for each drain's claim, of one shard
// and of every shard.
func TestClaimPassesHeldRows(t *testing.T) {
	dbURL := freshDB(t)
	d := openDriver(t, dbURL, mysql.Options{})
	seedDue(t, rawDB(t, dbURL), 200*16)
	for _, leases := range []storetype.Leases{{{Shard: 3}}, nil} {
		for _, c := range dueReads(storetype.DueParams{Now: t0, Limit: 20, Leases: leases}) {
			claimPastHeld(t, d, c, leases.Shards())
		}
	}
}

// claimPastHeld claims a batch of 20 with c in each of two transactions
// open together: the second must take 20 rows, none the first holds.
func claimPastHeld(t *testing.T, d *mysql.Driver, c dueRead, shards []int) {
	t.Helper()
	var held []string
	for range 2 {
		tx, err := d.Begin(t.Context(), false)
		if err != nil {
			t.Fatalf("begin: %v", err)
		}
		defer tx.Rollback()
		due, err := c.read(t.Context(), tx)
		if err != nil || len(due) != 20 {
			t.Fatalf("%s of shards %v with %d rows held: %d rows, %v; want 20", c.name, shards, len(held), len(due), err)
		}
		for _, id := range due {
			if slices.Contains(held, id) {
				t.Fatalf("%s of shards %v: %s is held by another transaction", c.name, shards, id)
			}
			held = append(held, id)
		}
	}
}

// TestPoolReadsPassHeldRows: outside a transaction, the reads of what a
// transaction holds (a coupon, a SKU's buckets, the due orders) neither
// wait for it nor skip it.
func TestPoolReadsPassHeldRows(t *testing.T) {
	ctx := t.Context()
	dbURL := freshDB(t)
	d := openDriver(t, dbURL, mysql.Options{})
	db := rawDB(t, dbURL)
	seedDue(t, db, 16)
	if _, err := db.ExecContext(ctx, "INSERT INTO skus (sku, bucket, buckets, available, reserved, sold, updated_at) VALUES ('tea', 0, 1, 7, 0, 0, ?)", t0); err != nil {
		t.Fatalf("seed a SKU: %v", err)
	}
	p := storetype.DueParams{Now: t0, Limit: 100}
	tx, err := d.Begin(ctx, false)
	if err != nil {
		t.Fatalf("begin: %v", err)
	}
	defer tx.Rollback()
	locked, err := tx.LocksDue(ctx, p)
	if err != nil || len(locked) != 16 {
		t.Fatalf("LocksDue: %d rows, %v; want 16", len(locked), err)
	}
	if due, err := tx.OrdersDue(ctx, p); err != nil || len(due) != 16 {
		t.Fatalf("OrdersDue in the holder: %d rows, %v; want 16", len(due), err)
	}
	if bs, err := tx.StockBuckets(ctx, "tea"); err != nil || len(bs) != 1 {
		t.Fatalf("StockBuckets in the holder: %v, %v; want one bucket", bs, err)
	}

	bounded, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	ex := d.Executor()
	if c, err := ex.Coupon(bounded, driver.CouponParams{ID: locked[0].ID}); err != nil || c.ID != locked[0].ID {
		t.Fatalf("Coupon(%s) beside its holder: %+v, %v", locked[0].ID, c, err)
	}
	if bs, err := ex.StockBuckets(bounded, "tea"); err != nil || len(bs) != 1 || bs[0].Available != 7 {
		t.Fatalf("StockBuckets beside their holder: %+v, %v; want one bucket of 7", bs, err)
	}
	if due, err := ex.OrdersDue(bounded, p); err != nil || len(due) != 16 {
		t.Fatalf("OrdersDue beside their holder: %d rows, %v; want all 16", len(due), err)
	}
}
