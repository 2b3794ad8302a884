package postgres_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lapsehq/lapse/driver/postgres"
	"github.com/lapsehq/lapse/driver/postgres/pgtest"
	"github.com/lapsehq/lapse/storetype"
)

// TestQueryPlans: at a realistic size and mix, the drains, the lazy counts
// and the feed (its head too, with 1,000,000 events stored) walk their
// indexes, as custom and as generic (prepared) plans; none scans the
// coupons table.
func TestQueryPlans(t *testing.T) {
	ctx := t.Context()
	u := pgtest.SchemaURL(t)
	open(t, u, postgres.Options{})
	conn := pgtest.Connect(t, u)
	seed(t, conn, "cpn_x", "tpl_a", 40000, "expired", t0.Add(-time.Hour), time.Millisecond)
	seed(t, conn, "cpn_u", "tpl_a", 5000, "unused", t0, time.Millisecond)
	seed(t, conn, "cpn_l", "tpl_b", 500, "locked", t0, time.Millisecond)
	seed(t, conn, "cpn_r", "tpl_b", 5000, "used", t0, time.Millisecond)
	// A whale's wallet, live and archived, among archived coupons of
	// many users.
	_, err := conn.Exec(ctx, `INSERT INTO coupons (id, template_id, user_id, status, claimed_at, expires_at, updated_at, version)
		SELECT 'cpn_w' || lpad(i::text, 10, '0'), 'tpl_w', 'whale', 'used', $1, $1::timestamptz + interval '1 hour', $1, 1
		FROM generate_series(1, 20000) AS i`, t0)
	if err != nil {
		t.Fatalf("seed a whale: %v", err)
	}
	_, err = conn.Exec(ctx, `INSERT INTO coupons_archive (id, template_id, user_id, status, claimed_at, expires_at, updated_at, version, archived_at)
		SELECT 'cpn_a' || lpad(i::text, 10, '0'), 'tpl_w', CASE WHEN i % 100 = 0 THEN 'whale' ELSE 'u' || i END, 'used', $1, $1, $1, 2, $1
		FROM generate_series(1, 20000) AS i`, t0)
	if err != nil {
		t.Fatalf("seed the archive: %v", err)
	}
	// Orders: mostly paid or closed, past their deadline; a few unpaid,
	// due one after the other from t0.
	_, err = conn.Exec(ctx, `INSERT INTO orders (id, user_id, status, items, coupon_ids, total, discount, amount_due, deadline, created_at, updated_at, version)
		SELECT 'ord_' || lpad(i::text, 10, '0'), 'u' || i, CASE WHEN i % 20 = 0 THEN 'unpaid' WHEN i % 2 = 0 THEN 'paid' ELSE 'closed' END,
		       '[]', '{}', 100, 0, 100,
		       CASE WHEN i % 20 = 0 THEN $1::timestamptz + i * interval '1 millisecond' ELSE $1::timestamptz - interval '1 hour' END, $1, $1, 1
		FROM generate_series(1, 20000) AS i`, t0)
	if err != nil {
		t.Fatalf("seed orders: %v", err)
	}
	// A feed of 1,000,000 events, ten a record, its head at the last.
	_, err = conn.Exec(ctx, `INSERT INTO events (seq, n, id, time, body)
		SELECT i * 10, 10, 'evt_' || i, $1, '[]' FROM generate_series(1, 100000) AS i`, t0)
	if err != nil {
		t.Fatalf("seed events: %v", err)
	}
	if _, err := conn.Exec(ctx, `UPDATE event_seq SET last = 1000000`); err != nil {
		t.Fatalf("seed the feed's head: %v", err)
	}
	if _, err := conn.Exec(ctx, "ANALYZE"); err != nil {
		t.Fatalf("analyze: %v", err)
	}
	now := t0.Add(time.Second)
	cases := []struct {
		query string
		args  []any
		// index lists the indexes the plan uses: each one, or one of
		// those an entry lists apart with "|".
		index []string
		// sorts: the plan may sort (a user's few coupons).
		sorts bool
	}{
		{"ExpireDue", []any{now, 1000, 0, storetype.Shards - 1}, []string{"coupons_due"}, false},
		{"ExpireDue", []any{now, 1000, 3, 3}, []string{"coupons_due"}, false},
		{"NextExpiry", []any{3, 3}, []string{"coupons_due"}, false},
		{"CountDueUnused", []any{now, "tpl_a"}, []string{"coupons_due"}, false},
		{"LocksDue", []any{now, 1000, 3, 3}, []string{"coupons_lock_due"}, false},
		{"NextRelease", []any{0, storetype.Shards - 1}, []string{"coupons_lock_due"}, false},
		{"DueBacklog", []any{now}, []string{"coupons_due", "coupons_lock_due"}, false},
		{"ExpiryFrom", []any{now}, []string{"coupons_due"}, false},
		{"ReleaseFrom", []any{now}, []string{"coupons_lock_due"}, false},
		{"DeadlineFrom", []any{now, 0, storetype.Shards - 1}, []string{"orders_due"}, false},
		{"DeadlineFrom", []any{now, 3, 3}, []string{"orders_due"}, false},
		// A page of a wallet reads a whale's 20,000 coupons from its
		// cursor on coupons_wallet, archive or not: unfiltered, in order
		// up to the page. Filtered, where the planner expects few to
		// match (status is not in the index, so that an expiry rewrites
		// no entry of it), it may read the range as a bitmap and sort
		// the matches top-N: bounded by the page either way.
		{"UserCoupons", []any{"whale", "", "", now, 100}, []string{"coupons_wallet"}, false},
		{"UserCouponsWithArchived", []any{"whale", "cpn_a0000010000", "", now, 100}, []string{"coupons_wallet", "coupons_archive_wallet"}, false},
		{"UserCoupons", []any{"whale", "cpn_w0000010000", "unused", now, 100}, []string{"coupons_wallet"}, true},
		{"UserCoupons", []any{"u7919", "", "expired", now, 100}, []string{"coupons_wallet"}, true},
		{"Records", []any{int64(20000), 100, storetype.MaxRecord}, []string{"events_seq"}, false},
		{"FrontRecords", []any{100}, []string{"events_seq"}, false},
		// The feed's head: one row, and the page before it an index
		// range at the end of a feed of 1,000,000 events.
		{"FeedEnd", nil, []string{"event_seq"}, false},
		{"Records", []any{int64(1000000 - 100), 100, storetype.MaxRecord}, []string{"events_seq"}, false},
		{"CouponsAfter", []any{"tpl_a", "cpn_u2500", "cpn_zzzzz", 100}, []string{"coupons_template"}, false},
		{"UsersCoupons", []any{[]string{"u7919", "u13"}, "cpn_zzzzz"}, []string{"coupons_user|coupons_wallet"}, false},
	}
	for _, mode := range []string{"force_custom_plan", "force_generic_plan"} {
		if _, err := conn.Exec(ctx, "SET plan_cache_mode = "+mode); err != nil {
			t.Fatalf("plan_cache_mode: %v", err)
		}
		for _, c := range cases {
			if _, err := conn.Exec(ctx, "PREPARE q AS "+postgres.QueryText(c.query)); err != nil {
				t.Fatalf("%s: prepare: %v", c.query, err)
			}
			explain := "EXPLAIN EXECUTE q"
			if len(c.args) > 0 {
				params := make([]string, len(c.args))
				for i := range params {
					params[i] = fmt.Sprintf("$%d", i+1)
				}
				explain += "(" + strings.Join(params, ", ") + ")"
			}
			plan := explainText(t, conn, explain, c.args)
			if _, err := conn.Exec(ctx, "DEALLOCATE q"); err != nil {
				t.Fatalf("deallocate: %v", err)
			}
			t.Logf("%s, %s:\n%s", c.query, mode, plan)
			if strings.Contains(plan, "Seq Scan on coupons") {
				t.Fatalf("%s (%s): scans coupons:\n%s", c.query, mode, plan)
			}
			if !c.sorts && strings.Contains(plan, "Sort  (") { // a Merge Append's Sort Key is no sort
				t.Fatalf("%s (%s): sorts instead of walking the index in order:\n%s", c.query, mode, plan)
			}
			for _, idx := range c.index {
				if !slices.ContainsFunc(strings.Split(idx, "|"), func(idx string) bool {
					return strings.Contains(plan, " using "+idx+" on ") || strings.Contains(plan, " on "+idx+" ")
				}) {
					t.Fatalf("%s (%s): does not use %s:\n%s", c.query, mode, idx, plan)
				}
			}
		}
	}
}

func explainText(t *testing.T, conn *pgx.Conn, explain string, args []any) string {
	t.Helper()
	// The simple protocol, so that pgx writes the arguments into EXECUTE
	// as literals.
	rows, err := conn.Query(t.Context(), explain, append([]any{pgx.QueryExecModeSimpleProtocol}, args...)...)
	if err != nil {
		t.Fatalf("%s: %v", explain, err)
	}
	lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatalf("%s: %v", explain, err)
	}
	return strings.Join(lines, "\n")
}
