package sqlite_test

import (
	"database/sql"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/drivertest"
	"github.com/lapsehq/lapse/driver/sqlite"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/store/storetest"
	"github.com/lapsehq/lapse/storetype"
)

var t0 = time.Date(2026, 11, 11, 0, 0, 0, 0, time.UTC)

// openDriver opens a driver on a file's path, and open the store over
// one; each is closed when t ends.
var (
	openDriver = storetest.OpenFunc[*sqlite.Driver, sqlite.Options](sqlite.Open).Driver
	open       = storetest.OpenFunc[*sqlite.Driver, sqlite.Options](sqlite.Open).Store
)

func tempPath(t testing.TB) string { return filepath.Join(t.TempDir(), "lapse.db") }

// newDriver opens a driver on a fresh file, closed when t ends.
func newDriver(t *testing.T) driver.Driver { return openDriver(t, tempPath(t), sqlite.Options{}) }

func TestStore(t *testing.T) {
	storetest.Run(t, newDriver)
}

// TestDriver runs the driver contract's own tests.
func TestDriver(t *testing.T) {
	drivertest.Run(t, newDriver)
}

// TestReopen: a reopened file keeps its data and its schema version, and
// opening it does not run the migrations again (they would fail on the
// existing tables).
func TestReopen(t *testing.T) {
	ctx := t.Context()
	path := tempPath(t)
	d, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		t.Fatalf("first Open: %v", err)
	}
	s := store.New(d, store.Options{})
	tp := storetest.Template(t, s, t0, nil)
	c, err := s.Claim(ctx, store.ClaimParams{TemplateID: tp.ID, UserID: "u1", Now: t0})
	if err != nil {
		t.Fatalf("Claim: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}

	for i := range 2 {
		var change storetype.SchemaChange
		s := open(t, path, sqlite.Options{OnMigrated: func(c storetype.SchemaChange) { change = c }})
		if change.From == 0 || change.To != change.From || len(change.Applied) > 0 {
			t.Fatalf("reopen %d: got %+v, want the version it had and nothing applied", i, change)
		}
		if err := s.Ready(ctx); err != nil {
			t.Fatalf("reopen %d: Ready: %v", i, err)
		}
		got, err := s.Coupon(ctx, c.ID)
		if err != nil {
			t.Fatalf("reopen %d: Coupon: %v", i, err)
		}
		if got.Status != coupon.Unused || got.UserID != "u1" || !got.ExpiresAt.Equal(c.ExpiresAt) {
			t.Fatalf("reopen %d: coupon: got %+v, want %+v", i, got, c)
		}
		info, err := s.Template(ctx, store.TemplateParams{ID: tp.ID, Now: t0})
		if err != nil {
			t.Fatalf("reopen %d: Template: %v", i, err)
		}
		if info.Template.Name != tp.Name || info.Counts[coupon.Unused] != 1 {
			t.Fatalf("reopen %d: template: got %+v, want %s with 1 unused", i, info, tp.Name)
		}
		if err := s.Close(); err != nil {
			t.Fatalf("reopen %d: Close: %v", i, err)
		}
	}
}

// rawDB opens the file at path directly, for what only SQL can see.
func rawDB(t testing.TB, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatalf("open raw: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// TestIdempotencyWaitBounded: a request waits for the same request in
// flight under its key for store.RequestWait at most (on the bubble's
// clock).
func TestIdempotencyWaitBounded(t *testing.T) {
	newDriver := newDriver
	synctest.Test(t, func(t *testing.T) { storetest.RunIdempotencyWaitBounded(t, newDriver) })
}

// TestReadsBesideEngine: users read, on the read pool, while a background
// transaction holds the one writer; their writes go before the next
// background one (TestGate).
func TestReadsBesideEngine(t *testing.T) {
	storetest.RunReadsBesideEngine(t, newDriver)
}

// TestReadsBesideWrites: users read, on the read pool, while a user's
// transaction holds the one writer.
func TestReadsBesideWrites(t *testing.T) {
	storetest.RunReadsBesideWrites(t, newDriver)
}

// TestQueryPlans: the drains and the lazy counts walk the partial indexes
// of live rows, with or without leases; none of them scans the coupons
// table.
func TestQueryPlans(t *testing.T) {
	path := tempPath(t)
	open(t, path, sqlite.Options{})
	db := rawDB(t, path)
	now := t0.UnixMilli()
	leased := "[3,4,9]" // the shards of a drain under leases; "" is every shard
	cases := []struct {
		query string
		args  []any
		index []string
	}{
		{"ExpireDue", []any{now, "", 1000}, []string{"coupons_due"}},
		{"ExpireDue", []any{now, leased, 1000}, []string{"coupons_due"}},
		{"NextExpiry", []any{""}, []string{"coupons_due"}},
		{"NextExpiry", []any{leased}, []string{"coupons_due"}},
		{"CountDueUnused", []any{now, "tpl_x"}, []string{"coupons_due"}},
		{"LocksDue", []any{now, "", 1000}, []string{"coupons_lock_due"}},
		{"LocksDue", []any{now, leased, 1000}, []string{"coupons_lock_due"}},
		{"NextRelease", []any{""}, []string{"coupons_lock_due"}},
		{"NextRelease", []any{leased}, []string{"coupons_lock_due"}},
		{"OrdersDue", []any{now, "", 1000}, []string{"orders_due"}},
		{"OrdersDue", []any{now, leased, 1000}, []string{"orders_due"}},
		{"NextDeadline", []any{""}, []string{"orders_due"}},
		{"NextDeadline", []any{leased}, []string{"orders_due"}},
		{"ExpiryFrom", []any{now}, []string{"coupons_due"}},
		{"ReleaseFrom", []any{now}, []string{"coupons_lock_due"}},
		{"DeadlineFrom", []any{now, ""}, []string{"orders_due"}},
		{"DeadlineFrom", []any{now, leased}, []string{"orders_due"}},
		{"DueBacklog", []any{now}, []string{"coupons_due", "coupons_lock_due", "reminders_due"}},
		{"ExistingCoupons", []any{`["cpn_1"]`}, []string{"sqlite_autoindex_coupons_1"}},
		{"ArchiveCoupons", []any{now, now, 1000}, []string{"coupons_done"}},
		{"ArchiveOrders", []any{now, now, 1000}, []string{"orders_done"}},
		{"PruneReminders", []any{now, 1000}, []string{"reminders_done"}},
		{"Archivable", []any{now, now}, []string{"coupons_done", "orders_done", "reminders_done"}},
		{"Records", []any{20000, 100, storetype.MaxRecord}, nil},
		// The feed's head: one row read, and the page before it a search
		// of the events by position, as every page's.
		{"FeedEnd", nil, nil},
		{"Records", []any{1000000 - 100, 100, storetype.MaxRecord}, nil},
		{"HeldCounts", []any{`["u1","u2"]`, "tpl_x"}, []string{"coupons_user"}},
		{"RemindersDue", []any{now, "", 1000}, []string{"reminders_due"}},
		{"RemindersDue", []any{now, leased, 1000}, []string{"reminders_due"}},
		{"NextReminder", []any{""}, []string{"reminders_due"}},
		{"NextReminder", []any{leased}, []string{"reminders_due"}},
		{"JoinableReminder", []any{"u", 3600000, now, now}, []string{"reminders_user"}},
		{"SentToday", []any{"u", now, now}, []string{"reminders_sent"}},
		// A bulk operation's page seeks its cursor in the template.
		{"CouponsAfter", []any{"tpl_x", "cpn_1", "cpn_z", 100}, []string{"coupons_template (template_id=? AND id>? AND id<?)"}},
		// A bulk operation on users reads their coupons by user.
		// (Either index by user serves it; SQLite picks the wallet's.)
		{"UsersCoupons", []any{`["u1","u2"]`, "cpn_z"}, []string{"coupons_wallet (user_id=? AND id<?)"}},
		// A page of a wallet walks it by ID from its cursor, filtered or
		// not, archive or not: it never sorts the wallet.
		{"UserCoupons", []any{"u", "", "", now, 100}, []string{"coupons_wallet (user_id=? AND id>?)"}},
		{"UserCoupons", []any{"u", "cpn_1", "unused", now, 100}, []string{"coupons_wallet (user_id=? AND id>?)"}},
		{"UserCouponsWithArchived", []any{"u", "cpn_1", "expired", now, 100},
			[]string{"coupons_wallet (user_id=? AND id>?)", "coupons_archive_wallet (user_id=? AND id>?)"}},
	}
	for _, c := range cases {
		rows, err := db.QueryContext(t.Context(), "EXPLAIN QUERY PLAN "+sqlite.QueryText(c.query), c.args...)
		if err != nil {
			t.Fatalf("%s: explain: %v", c.query, err)
		}
		var plan []string
		for rows.Next() {
			var (
				id, parent, notused int
				detail              string
			)
			if err := rows.Scan(&id, &parent, &notused, &detail); err != nil {
				t.Fatalf("%s: scan plan: %v", c.query, err)
			}
			plan = append(plan, detail)
		}
		if err := rows.Close(); err != nil {
			t.Fatalf("%s: plan: %v", c.query, err)
		}
		text := strings.Join(plan, "; ")
		t.Logf("%s: %s", c.query, text)
		for _, d := range plan {
			if (strings.HasPrefix(d, "SCAN coupons") || strings.HasPrefix(d, "SCAN events")) && !strings.Contains(d, " INDEX ") {
				t.Fatalf("%s: full table scan in plan: %s", c.query, text)
			}
			if strings.Contains(d, "TEMP B-TREE") {
				t.Fatalf("%s: sorts instead of walking the index in due order: %s", c.query, text)
			}
		}
		for _, idx := range c.index {
			if !slices.ContainsFunc(plan, func(d string) bool { return strings.Contains(d+" ", "INDEX "+idx+" ") }) {
				t.Fatalf("%s: plan does not use %s: %s", c.query, idx, text)
			}
		}
	}
}
