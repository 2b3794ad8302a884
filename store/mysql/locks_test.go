package mysql_test

import (
	"database/sql"
	"fmt"
	"testing"
	"time"

	"github.com/lapsehq/lapse/store/mysql"
)

// TestClaimLocksBounded: a drain batch's locking read holds the rows it
// claims, not the due range it walks. Every shard has 200 rows of each
// kind past due; a batch of 20 of shard 3, held open at READ COMMITTED as
// the driver's sessions run, may hold two record locks per row claimed
// (its due index entry and its primary key record) and a couple more,
// whatever the other shards hold. Before the due indexes led
// with the shard (0008_shard_due.sql), the claim of one shard walked the
// interleaved range of all 16 and held every row it passed: ~320 here,
// and in a storm of a million rows enough lock heaps to stop MariaDB.
func TestClaimLocksBounded(t *testing.T) {
	dbURL := freshDB(t)
	open(t, dbURL, mysql.Options{})
	db := rawDB(t, dbURL)
	seedDue(t, db, 200*16)
	const limit, slack = 20, 2
	now := t0
	for _, name := range []string{"ClaimExpiries", "ClaimLocks", "ClaimOrdersDue", "RemindersDue"} {
		rows, structs := locksHeld(t, db, mysql.QueryText(name, 0), now, 3, limit)
		t.Logf("%s: %d record locks in %d lock structs", name, rows, structs)
		if rows > 2*limit+slack {
			t.Errorf("%s: a batch of %d holds %d record locks, want at most %d", name, limit, rows, 2*limit+slack)
		}
	}
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

// locksHeld runs the claim q with args in a READ COMMITTED transaction of
// its own and, while it is open, reads from information_schema.INNODB_TRX
// how many rows it holds locked and in how many lock structs; then rolls
// it back.
func locksHeld(t *testing.T, db *sql.DB, q string, args ...any) (rows, structs int) {
	t.Helper()
	ctx := t.Context()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatalf("conn: %v", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED"); err != nil {
		t.Fatalf("isolation: %v", err)
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		t.Fatalf("begin: %v", err)
	}
	defer tx.Rollback()
	claimed, err := tx.QueryContext(ctx, q, args...)
	if err != nil {
		t.Fatalf("claim: %v", err)
	}
	n := 0
	for claimed.Next() {
		n++
	}
	if err := claimed.Close(); err != nil {
		t.Fatalf("claim: %v", err)
	}
	if n == 0 {
		t.Fatalf("claim: no row claimed by %s", q)
	}
	// The server refreshes INNODB_TRX from the live transactions at
	// most every 100 ms: an earlier read may still show another.
	time.Sleep(200 * time.Millisecond)
	err = tx.QueryRowContext(ctx, "SELECT trx_rows_locked, trx_lock_structs FROM information_schema.INNODB_TRX WHERE trx_mysql_thread_id = CONNECTION_ID()").Scan(&rows, &structs)
	if err != nil {
		t.Fatalf("INNODB_TRX: %v", err)
	}
	return rows, structs
}
