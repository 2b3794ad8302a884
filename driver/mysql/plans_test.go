package mysql_test

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/mysql"
)

// TestQueryPlans: the drains, the backlog and the lazy counts read a range
// of one live state of their index, in due order, and never a terminal
// row. MySQL has no partial index: this is what (status, due) buys. The
// tables hold 3,000 terminal coupons and 3,000 paid or closed orders, all
// past due, and a few live rows not yet due; each query must read almost
// nothing of them.
func TestQueryPlans(t *testing.T) {
	dbURL := freshDB(t)
	open(t, dbURL, mysql.Options{})
	db := rawDB(t, dbURL)
	seedPlans(t, db)
	now := t0
	checkPlans(t, db, []planCase{
		{"DueExpiryShards", 0, []any{now, 3, 1000}, "coupons_due", 2},
		{"ClaimExpiries", 0, []any{now, 3, 1000}, "coupons_due", 2},
		{"ExpireClaimed", 3, []any{now, "cpn_a", "cpn_b", "cpn_c"}, "PRIMARY", 3},
		{"NextExpiry", 16, []any{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, "coupons_due", 33},
		{"CountDueUnused", 0, []any{now, "tpl_x"}, "coupons_due", 16},
		{"DueLockShards", 0, []any{now, 3, 1000}, "coupons_lock_due", 2},
		{"ClaimLocks", 0, []any{now, 3, 1000}, "coupons_lock_due", 2},
		{"NextRelease", 16, []any{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, "coupons_lock_due", 33},
		{"DueBacklog", 0, []any{now, now, now, now}, "", 64},
		{"DueOrderShards", 0, []any{now, 3, 1000}, "orders_due", 2},
		{"OrdersDue", 0, []any{now, 3, 1000}, "orders_due", 2},
		{"ClaimOrdersDue", 0, []any{now, 3, 1000}, "orders_due", 2},
		{"NextDeadline", 16, []any{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, "orders_due", 33},
		{"ExpiryFrom", 0, []any{now}, "coupons_due", 3},
		{"DeadlineFrom", 16, []any{now, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, "orders_due", 33},
		{"DeadlineFrom", 1, []any{now, 3}, "orders_due", 2},
		{"DueReminderShards", 0, []any{now, 3, 1000}, "reminders_due", 2},
		{"RemindersDue", 0, []any{now, 3, 1000}, "reminders_due", 2},
		{"NextReminder", 16, []any{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, "reminders_due", 33},
		{"OpenOrders", 0, nil, "orders_due", 3},
		// A bulk operation's page starts at its cursor, not at the
		// template's first coupon.
		{"CouponsAfter", 0, []any{"tpl_x", "cpn_02990", "cpn_zzzzz", 5}, "coupons_template", 8},
		// A bulk operation on users reads their coupons by user.
		{"UsersCoupons", 2, []any{"cpn_zzzzz", "u1", "u2"}, "coupons_user", 8},
	})
}

// TestWalletQueryPlans: a page of a wallet walks coupons_wallet from its
// cursor, and the archive's from its own, without a sort: it reads about
// a page of a whale's 2,000 coupons; filtered, until the page is full.
func TestWalletQueryPlans(t *testing.T) {
	dbURL := freshDB(t)
	open(t, dbURL, mysql.Options{})
	db := rawDB(t, dbURL)
	seedPlans(t, db)
	seedWhale(t, db)
	now := t0
	page := []any{"w", "cpn_w00500", "", now, "", 100}
	archived := []any{"w", "cpn_a00500", "", now, "", 100}
	checkPlans(t, db, []planCase{
		{"UserCoupons", 0, page, "coupons_wallet", 110},
		{"UserCoupons", 0, []any{"w", "", "used", now, "used", 100}, "coupons_wallet", 110},
		{"UserCoupons", 0, []any{"u", "", "unused", now, "unused", 100}, "coupons_wallet", 8},
		// From a cursor among the archive's IDs, both tables hold more.
		{"UserCouponsWithArchived", 0, slices.Concat(archived, archived, []any{100}), "coupons_wallet", 220},
	})
}

// planCase is a query whose plan checkPlans checks.
type planCase struct {
	query string
	list  int // IDs in the query's list
	args  []any
	// index is the index the query reads (on the archive, its
	// coupons_archive_ twin); "" is any due index.
	index string
	// reads bounds the index entries the query may read. A walk of
	// one shard (3) reads that shard's due range only; what reads
	// every shard reads about two entries a shard (a leases row, a
	// dive into the due index), never a terminal one.
	reads int
}

// checkPlans fails t unless each case's query reads its index, without a
// scan or a sort, and at most its reads entries.
func checkPlans(t *testing.T, db *sql.DB, cases []planCase) {
	t.Helper()
	for _, c := range cases {
		q := mysql.QueryText(c.query, c.list)
		for _, p := range explain(t, db, q, c.args) {
			t.Logf("%s: %+v", c.query, p)
			if p.table != "coupons" && p.table != "coupons_archive" && p.table != "orders" && p.table != "reminders" {
				continue
			}
			if p.typ == "ALL" || p.typ == "index" {
				t.Fatalf("%s: scans all of %s (%s): %+v", c.query, p.table, p.typ, p)
			}
			if strings.Contains(p.extra, "filesort") {
				t.Fatalf("%s: sorts instead of walking the index in due order: %+v", c.query, p)
			}
			if c.index != "" && p.key != c.index && p.key != strings.Replace(c.index, "coupons_", "coupons_archive_", 1) {
				t.Fatalf("%s: uses index %q, want %s: %+v", c.query, p.key, c.index, p)
			}
			if c.index == "" && !strings.HasSuffix(p.key, "_due") {
				t.Fatalf("%s: uses index %q, want a due index: %+v", c.query, p.key, p)
			}
		}
		got := indexReads(t, db, q, c.args)
		t.Logf("%s: %d index entries read", c.query, got)
		if got > c.reads {
			t.Fatalf("%s: read %d index entries, want at most %d: it reads terminal rows", c.query, got, c.reads)
		}
	}
}

// seedWhale writes a whale, user w: 2,000 used coupons, and 200 archived
// among 2,000 of other users.
func seedWhale(t *testing.T, db *sql.DB) {
	t.Helper()
	past := t0.Add(-time.Hour).Format("2006-01-02 15:04:05.000")
	var whale, archived []string
	for i := range 2000 {
		whale = append(whale, fmt.Sprintf("('cpn_w%05d', 'tpl_w', 'w', 'used', '%s', '%s', NULL, NULL, '%s', 2)", i, past, past, past))
		user := fmt.Sprint("a", i)
		if i%10 == 0 {
			user = "w"
		}
		archived = append(archived, fmt.Sprintf("('cpn_a%05d', 'tpl_w', '%s', 'used', '%s', '%s', NULL, NULL, '%s', 2, '%s')", i, user, past, past, past, past))
	}
	insert(t, db, "INSERT INTO coupons (id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version) VALUES ", whale)
	insert(t, db, "INSERT INTO coupons_archive (id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version, archived_at) VALUES ", archived)
	if _, err := db.ExecContext(t.Context(), "ANALYZE TABLE coupons, coupons_archive"); err != nil {
		t.Fatalf("analyze: %v", err)
	}
}

// seedPlans writes 3,000 terminal coupons and 3,000 paid or closed orders
// due an hour before t0, and two live ones of each due state, due after
// t0.
func seedPlans(t *testing.T, db *sql.DB) {
	t.Helper()
	var rows, orders []string
	past, future := t0.Add(-time.Hour).Format("2006-01-02 15:04:05.000"), t0.Add(time.Hour).Format("2006-01-02 15:04:05.000")
	for i := range 3000 {
		st := []string{"expired", "used", "voided"}[i%3]
		// As the store writes them: no lock time once out of locked.
		rows = append(rows, fmt.Sprintf("('cpn_%05d', 'tpl_x', 'u%d', '%s', '%s', '%s', NULL, NULL, '%s', 2)", i, i, st, past, past, past))
	}
	for i := range 2 {
		rows = append(rows,
			fmt.Sprintf("('cpn_u%d', 'tpl_x', 'u', 'unused', '%s', '%s', NULL, NULL, '%s', 1)", i, past, future, past),
			fmt.Sprintf("('cpn_l%d', 'tpl_x', 'u', 'locked', '%s', '%s', 'o', '%s', '%s', 2)", i, past, future, future, past))
	}
	for i := range 3000 {
		st := []string{"paid", "closed"}[i%2]
		orders = append(orders, fmt.Sprintf("('ord_%05d', 'u%d', '%s', '[]', '[]', 100, 0, 100, '%s', '%s', '%s', 2)", i, i, st, past, past, past))
	}
	for i := range 2 {
		orders = append(orders, fmt.Sprintf("('ord_u%d', 'u', 'unpaid', '[]', '[]', 100, 0, 100, '%s', '%s', '%s', 1)", i, future, past, past))
	}
	insert(t, db, "INSERT INTO coupons (id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version) VALUES ", rows)
	insert(t, db, "INSERT INTO orders (id, user_id, status, items, coupon_ids, total, discount, amount_due, deadline, created_at, updated_at, version) VALUES ", orders)
	if _, err := db.ExecContext(t.Context(), "ANALYZE TABLE coupons, orders"); err != nil {
		t.Fatalf("analyze: %v", err)
	}
}

// insert writes rows with the statement head, 500 a statement.
func insert(t *testing.T, db *sql.DB, head string, rows []string) {
	t.Helper()
	for len(rows) > 0 {
		n := min(500, len(rows))
		if _, err := db.ExecContext(t.Context(), head+strings.Join(rows[:n], ", ")); err != nil {
			t.Fatalf("seed: %v", err)
		}
		rows = rows[n:]
	}
}

// plan is one row of EXPLAIN.
type plan struct{ table, typ, key, extra string }

func explain(t *testing.T, db *sql.DB, q string, args []any) []plan {
	t.Helper()
	rows, err := db.QueryContext(t.Context(), "EXPLAIN "+q, args...)
	if err != nil {
		t.Fatalf("explain %s: %v", q, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatalf("explain columns: %v", err)
	}
	var out []plan
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatalf("explain scan: %v", err)
		}
		var p plan
		for i, c := range cols {
			switch strings.ToLower(c) {
			case "table":
				p.table = vals[i].String
			case "type":
				p.typ = vals[i].String
			case "key":
				p.key = vals[i].String
			case "extra":
				p.extra = vals[i].String
			}
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("explain: %v", err)
	}
	return out
}

// indexReads runs q in a transaction it rolls back, on one connection,
// and returns how many index entries the server read for it: the
// session's Handler_read_key and Handler_read_next before and after.
func indexReads(t *testing.T, db *sql.DB, q string, args []any) int {
	t.Helper()
	ctx := t.Context()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatalf("conn: %v", err)
	}
	defer conn.Close()
	before := handlerReads(t, ctx, conn)
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		t.Fatalf("begin: %v", err)
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, q, args...)
	if err != nil {
		t.Fatalf("run %s: %v", q, err)
	}
	for rows.Next() {
	}
	if err := rows.Close(); err != nil {
		t.Fatalf("run %s: %v", q, err)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatalf("rollback: %v", err)
	}
	return handlerReads(t, ctx, conn) - before
}

func handlerReads(t *testing.T, ctx context.Context, conn *sql.Conn) int {
	t.Helper()
	rows, err := conn.QueryContext(ctx, "SHOW SESSION STATUS WHERE Variable_name IN ('Handler_read_key', 'Handler_read_next', 'Handler_read_prev', 'Handler_read_first', 'Handler_read_last')")
	reads, err := sqlfile.Read(rows, err, sqlfile.ScanCounts)
	if err != nil {
		t.Fatalf("handler status: %v", err)
	}
	sum := 0
	for _, n := range reads {
		sum += int(n)
	}
	return sum
}
