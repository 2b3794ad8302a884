// Package drivertest exercises the storage contract (driver.Driver, its
// Executor outside a transaction and the ExecutorTx of a write
// transaction) directly on a backend, one subtest per method or guard:
// rows in, rows out, compare-and-sets that change nothing when their
// guard fails, order, limits and shard filters, with every time passed
// in. It holds no service rule: those
// are store/storetest's, which runs the service over the same drivers.
// Each backend's tests call Run, as they call storetest.Run.
package drivertest

import (
	"context"
	"crypto/md5"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/storetype"
)

// t0 is the suite's reference instant; every other time is relative to it.
var t0 = time.Date(2026, 11, 11, 0, 0, 0, 0, time.UTC)

// Open opens a driver of a fresh, empty, migrated database that it closes
// and removes when t ends.
type Open func(t *testing.T) driver.Driver

// Run runs every test of the suite, each on a driver of its own.
func Run(t *testing.T, open Open) {
	groups := []struct {
		name  string
		tests []test
	}{
		{"Driver", driverTests},
		{"Executor", executorTests},
		{"Missing", missingTests},
		{"Templates", templateTests},
		{"Coupons", couponTests},
		{"Orders", orderTests},
		{"Stock", stockTests},
		{"Tokens", tokenTests},
		{"Requests", requestTests},
		{"Operations", operationTests},
		{"Reminders", reminderTests},
		{"Leases", leaseTests},
		{"Timers", timerTests},
		{"Expire", expireTests},
		{"Feed", feedTests},
		{"Sinks", sinkTests},
		{"Archive", archiveTests},
		{"Pages", pageTests},
	}
	for _, g := range groups {
		t.Run(g.name, func(t *testing.T) {
			for _, tc := range g.tests {
				t.Run(tc.name, func(t *testing.T) {
					tc.run(&fixture{t: t, ctx: t.Context(), d: open(t)})
				})
			}
		})
	}
}

// test is one subtest: a method, or one guard of it.
type test struct {
	name string
	run  func(f *fixture)
}

// fixture is one test's driver.
type fixture struct {
	t   *testing.T
	ctx context.Context
	d   driver.Driver
}

// tx runs fn in one write transaction and commits it.
func (f *fixture) tx(fn func(tx driver.Executor)) {
	f.t.Helper()
	tx, err := f.d.Begin(f.ctx, false)
	ok(f.t, "Begin", err)
	defer tx.Rollback()
	fn(tx)
	_, err = tx.Commit(f.ctx, nil)
	ok(f.t, "Commit", err)
}

// read returns what fn returned in one committed transaction; what
// names the call.
func read[T any](f *fixture, what string, fn func(tx driver.Executor) (T, error)) T {
	f.t.Helper()
	var v T
	f.tx(func(tx driver.Executor) {
		var err error
		v, err = fn(tx)
		ok(f.t, what, err)
	})
	return v
}

// setCase is one compare-and-set of a row: the version it is set from,
// and whether the set applies.
type setCase[T any] struct {
	name string
	from T
	set  bool
}

// wantSets runs set from each case's row in turn, each in its own
// transaction, and fails unless each applies as its case says.
func wantSets[T any](f *fixture, set func(tx driver.Executor, from T) (bool, error), cases []setCase[T]) {
	f.t.Helper()
	for _, tc := range cases {
		applied := read(f, tc.name, func(tx driver.Executor) (bool, error) { return set(tx, tc.from) })
		want(f.t, tc.name, applied, tc.set)
	}
}

// dueCase is one listing of what is due: at now, up to limit, and the
// IDs wanted, in order.
type dueCase struct {
	now    time.Time
	limit  int
	wanted []string
}

// wantDue lists with due (named what) for each case, each in its own
// transaction, and fails unless it lists the case's IDs (by id) in order.
func wantDue[T any](f *fixture, what string, due func(driver.Executor, context.Context, storetype.DueParams) ([]T, error), id func(T) string, cases []dueCase) {
	f.t.Helper()
	for _, tc := range cases {
		got := read(f, what, func(tx driver.Executor) ([]T, error) {
			return due(tx, f.ctx, storetype.DueParams{Now: tc.now, Limit: tc.limit})
		})
		wantIDs(f.t, what+" at "+tc.now.String(), got, id, tc.wanted...)
	}
}

// insert stores rows with put in one transaction.
func insert[T any](f *fixture, what string, put func(driver.Executor, context.Context, T) error, rows ...T) {
	f.t.Helper()
	f.tx(func(tx driver.Executor) {
		for _, r := range rows {
			ok(f.t, what, put(tx, f.ctx, r))
		}
	})
}

// ok fails t on err; what names the call.
func ok(t testing.TB, what string, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// notFound fails t unless err is storetype.ErrNotFound.
func notFound(t testing.TB, what string, err error) {
	t.Helper()
	if !errors.Is(err, storetype.ErrNotFound) {
		t.Fatalf("%s: got %v, want ErrNotFound", what, err)
	}
}

// want fails t unless got is want.
func want[T comparable](t testing.TB, what string, got, want T) {
	t.Helper()
	if got != want {
		t.Fatalf("%s: got %v, want %v", what, got, want)
	}
}

// wantTime fails t unless got is the instant want.
func wantTime(t testing.TB, what string, got, want time.Time) {
	t.Helper()
	if !got.Equal(want) {
		t.Fatalf("%s: got %s, want %s", what, got.UTC().Format(time.RFC3339Nano), want.UTC().Format(time.RFC3339Nano))
	}
}

// wantIDs fails t unless the IDs of got, in order, are want.
func wantIDs[T any](t testing.TB, what string, got []T, id func(T) string, want ...string) {
	t.Helper()
	ids := keys(got, id)
	if !slices.Equal(ids, want) && !(len(ids) == 0 && len(want) == 0) {
		t.Fatalf("%s: got %q, want %q", what, ids, want)
	}
}

// keys returns the key of each of xs, in order.
func keys[T, K any](xs []T, key func(T) K) []K {
	out := make([]K, len(xs))
	for i, x := range xs {
		out[i] = key(x)
	}
	return out
}

// inShard returns the first of the IDs prefix0, prefix1, ... from from on
// whose shard is shard: the low four bits of the MD5 of the ID, as the
// backends compute it in SQL.
func inShard(prefix string, shard, from int) string {
	for i := from; ; i++ {
		id := fmt.Sprintf("%s%d", prefix, i)
		if sum := md5.Sum([]byte(id)); int(sum[15]&0x0f) == shard {
			return id
		}
	}
}

// ident is the key of a string that is its own ID.
func ident(s string) string { return s }
