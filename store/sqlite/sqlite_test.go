package sqlite_test

import (
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/store/sqlite"
	"github.com/lapsehq/lapse/store/storetest"
)

var t0 = time.Date(2026, 11, 11, 0, 0, 0, 0, time.UTC)

// openDriver opens a driver on path, closed when t ends.
func openDriver(t testing.TB, path string, opts sqlite.Options) *sqlite.Driver {
	t.Helper()
	d, err := sqlite.OpenDriver(t.Context(), path, opts)
	return storetest.Opened(t, d, err)
}

// open opens the store over a driver on path, closed when t ends.
func open(t testing.TB, path string, opts sqlite.Options) *store.DB {
	return store.New(openDriver(t, path, opts), store.Options{Hooks: opts.Hooks, Remind: opts.Remind})
}

func tempPath(t testing.TB) string { return filepath.Join(t.TempDir(), "lapse.db") }

func TestStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Driver {
		return openDriver(t, tempPath(t), sqlite.Options{})
	})
}

// template creates a 24h template claimable from a day before t0.
func template(t testing.TB, s store.Store, edit func(*coupon.Template)) coupon.Template {
	t.Helper()
	tp := coupon.Template{Name: "t", Value: 100, StartsAt: t0.Add(-24 * time.Hour), Duration: 24 * time.Hour}
	if edit != nil {
		edit(&tp)
	}
	got, err := s.CreateTemplate(t.Context(), store.CreateTemplateParams{Template: tp, Now: tp.StartsAt})
	if err != nil {
		t.Fatalf("CreateTemplate: %v", err)
	}
	return got
}

// TestReopen: a reopened file keeps its data and its schema version, and
// opening it does not run the migrations again (they would fail on the
// existing tables).
func TestReopen(t *testing.T) {
	ctx := t.Context()
	path := tempPath(t)
	s, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		t.Fatalf("first Open: %v", err)
	}
	tp := template(t, s, nil)
	c, err := s.Claim(ctx, store.ClaimParams{TemplateID: tp.ID, UserID: "u1", Now: t0})
	if err != nil {
		t.Fatalf("Claim: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}

	for i := range 2 {
		s := open(t, path, sqlite.Options{})
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

	files, err := os.ReadDir("migrations")
	if err != nil {
		t.Fatalf("read migrations: %v", err)
	}
	db := rawDB(t, path)
	var rows, version int
	if err := db.QueryRowContext(ctx, "SELECT count(*), max(version) FROM schema_migrations").Scan(&rows, &version); err != nil {
		t.Fatalf("schema_migrations: %v", err)
	}
	last, _, _ := strings.Cut(files[len(files)-1].Name(), "_")
	if want, _ := strconv.Atoi(last); rows != len(files) || version != want {
		t.Fatalf("schema_migrations: got %d rows up to version %d, want %d rows up to %d", rows, version, len(files), want)
	}
}

// rawDB opens the file at path directly, for what only SQL can see.
func rawDB(t *testing.T, path string) *sql.DB {
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
	newDriver := func(t *testing.T) store.Driver { return openDriver(t, tempPath(t), sqlite.Options{}) }
	synctest.Test(t, func(t *testing.T) { storetest.RunIdempotencyWaitBounded(t, newDriver) })
}

// TestReadsBesideEngine: users read, on the read pool, while a background
// transaction holds the one writer; their writes go before the next
// background one (TestGate).
func TestReadsBesideEngine(t *testing.T) {
	storetest.RunReadsBesideEngine(t, func(t *testing.T) store.Driver { return openDriver(t, tempPath(t), sqlite.Options{}) })
}

// TestReadsBesideWrites: users read, on the read pool, while a user's
// transaction holds the one writer.
func TestReadsBesideWrites(t *testing.T) {
	storetest.RunReadsBesideWrites(t, func(t *testing.T) store.Driver { return openDriver(t, tempPath(t), sqlite.Options{}) })
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
		{"ExpireDue", []any{now, 1000, ""}, []string{"coupons_due"}},
		{"ExpireDue", []any{now, 1000, leased}, []string{"coupons_due"}},
		{"NextExpiry", []any{""}, []string{"coupons_due"}},
		{"NextExpiry", []any{leased}, []string{"coupons_due"}},
		{"CountDueUnused", []any{now, "tpl_x"}, []string{"coupons_due"}},
		{"LocksDue", []any{now, 1000, ""}, []string{"coupons_lock_due"}},
		{"LocksDue", []any{now, 1000, leased}, []string{"coupons_lock_due"}},
		{"NextRelease", []any{""}, []string{"coupons_lock_due"}},
		{"NextRelease", []any{leased}, []string{"coupons_lock_due"}},
		{"OrdersDue", []any{now, 1000, ""}, []string{"orders_due"}},
		{"OrdersDue", []any{now, 1000, leased}, []string{"orders_due"}},
		{"NextDeadline", []any{""}, []string{"orders_due"}},
		{"NextDeadline", []any{leased}, []string{"orders_due"}},
		{"DeadlineAfter", []any{now, ""}, []string{"orders_due"}},
		{"DeadlineAfter", []any{now, leased}, []string{"orders_due"}},
		{"DueBacklog", []any{now}, []string{"coupons_due", "coupons_lock_due", "reminders_due"}},
		{"ExistingCoupons", []any{`["cpn_1"]`}, []string{"sqlite_autoindex_coupons_1"}},
		{"InsertExpiredEvents", []any{"0123456789", now, `[1,2]`, now, "2026-11-11T00:00:00.000Z"}, nil},
		{"HeldCounts", []any{`["u1","u2"]`, "tpl_x"}, []string{"coupons_user"}},
		{"RemindersDue", []any{now, 1000, ""}, []string{"reminders_due"}},
		{"RemindersDue", []any{now, 1000, leased}, []string{"reminders_due"}},
		{"NextReminder", []any{""}, []string{"reminders_due"}},
		{"NextReminder", []any{leased}, []string{"reminders_due"}},
		{"JoinableReminder", []any{"u", 3600000, now, now}, []string{"reminders_user"}},
		{"SentToday", []any{"u", now, now}, []string{"reminders_sent"}},
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
			if strings.HasPrefix(d, "SCAN coupons") && !strings.Contains(d, " INDEX ") {
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

// TestSQLEventsAsCouponEvent: the coupon.claimed events of a bulk
// issuance and the coupon.expired events of a drain, written in SQL, carry
// what store.CouponEvent writes, field for field (the JSON may escape
// differently), and their IDs are IDs made at the time of the event.
func TestSQLEventsAsCouponEvent(t *testing.T) {
	ctx := t.Context()
	s := open(t, tempPath(t), sqlite.Options{})
	tp := template(t, s, func(tp *coupon.Template) { tp.Duration = time.Hour + 123*time.Millisecond })
	user := "ü\"<&1"
	claimed := t0.Add(456 * time.Millisecond)
	if _, err := s.Issue(ctx, store.IssueParams{TemplateID: tp.ID, Users: store.UserList([]string{user}), Now: claimed}); err != nil {
		t.Fatalf("Issue: %v", err)
	}
	cs, err := s.UserCoupons(ctx, store.UserCouponsParams{UserID: user, Now: claimed})
	if err != nil || len(cs) != 1 {
		t.Fatalf("coupons of %q: got %d (%v), want 1", user, len(cs), err)
	}
	c := cs[0]
	// A second coupon due earlier, expired by the same drain, takes the
	// drain's other way of formatting expires_at.
	early := c
	early.ExpiresAt = c.ExpiresAt.Add(-time.Minute)
	earlyTp := template(t, s, func(tp *coupon.Template) { tp.Duration = time.Hour + 123*time.Millisecond - time.Minute })
	if early, err = s.Claim(ctx, store.ClaimParams{TemplateID: earlyTp.ID, UserID: user, Now: claimed}); err != nil {
		t.Fatalf("Claim: %v", err)
	}
	expired := c.ExpiresAt.Add(789 * time.Millisecond)
	if _, err := s.ExpireDue(ctx, store.DueParams{Now: expired, Limit: 10}); err != nil {
		t.Fatalf("ExpireDue: %v", err)
	}
	evs, err := s.Events(ctx, store.EventsParams{Limit: 10})
	if err != nil || len(evs) != 4 {
		t.Fatalf("events: got %d (%v), want 4", len(evs), err)
	}
	bySubject := map[string]store.Event{}
	for _, e := range evs[2:] {
		bySubject[e.Subject] = e
	}
	for i, want := range []store.Event{
		store.CouponEvent(c, store.EventCouponClaimed, 0, store.ReasonClaim, "", claimed),
		store.CouponEvent(c, store.EventCouponExpired, coupon.Unused, store.ReasonExpiry, "", expired),
		store.CouponEvent(early, store.EventCouponExpired, coupon.Unused, store.ReasonExpiry, "", expired),
	} {
		e := evs[0]
		if i > 0 {
			e = bySubject[want.Subject]
		}
		c := c
		if want.Subject == early.ID {
			c = early
		}
		if e.Type != want.Type || e.Subject != c.ID || !e.Time.Equal(want.Time) {
			t.Fatalf("event %d: got %s of %s at %s, want %s of %s at %s", i, e.Type, e.Subject, e.Time, want.Type, c.ID, want.Time)
		}
		var got, wantData store.CouponEventData
		if err := json.Unmarshal(e.Data, &got); err != nil {
			t.Fatalf("%s data %s: %v", e.Type, e.Data, err)
		}
		json.Unmarshal(want.Data, &wantData)
		if got != wantData {
			t.Fatalf("%s data: got %s, want %s", e.Type, e.Data, want.Data)
		}
		if len(e.ID) != len(want.ID) || e.ID[:14] != want.ID[:14] || e.ID[14:] != c.ID[14:] {
			t.Fatalf("%s id: got %s, want evt_ then the time part of %s then the random part of %s", e.Type, e.ID, want.ID, c.ID)
		}
	}
}
