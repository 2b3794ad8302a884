package sqlfile

import (
	"database/sql"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	_ "modernc.org/sqlite"
)

var testDialect = Dialect{
	CreateTable: "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY)",
	Insert:      "INSERT INTO schema_migrations (version) VALUES (?)",
}

var (
	one   = Migration{Version: 1, Name: "0001_a.sql", SQL: "CREATE TABLE a (x INTEGER)"}
	two   = Migration{Version: 2, Name: "0002_b.sql", SQL: "-- Nothing to do here.\n"}
	three = Migration{Version: 3, Name: "0003_c.sql", SQL: "CREATE TABLE c (x INTEGER)"}
)

func openTest(t *testing.T) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "m.db"))
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// recorded returns the versions db records, in order.
func recorded(t *testing.T, db *sql.DB) []int {
	t.Helper()
	vs, err := versions(t.Context(), db)
	if err != nil {
		t.Fatalf("versions: %v", err)
	}
	return slices.Sorted(maps.Keys(vs))
}

// TestMigrateLateVersion: a migration whose number lands after a higher
// one was applied is still applied, and nothing runs twice; a migration
// with nothing to run is recorded.
func TestMigrateLateVersion(t *testing.T) {
	db := openTest(t)
	ctx := t.Context()
	if c, err := Migrate(ctx, db, testDialect, []Migration{one, three}); err != nil || c.From != 0 || c.To != 3 || !slices.Equal(c.Applied, []string{one.Name, three.Name}) {
		t.Fatalf("migrate 1, 3: got %+v, %v; want both applied, 0 -> 3", c, err)
	}
	all := []Migration{one, two, three}
	if err := Check(ctx, db, all); err == nil {
		t.Fatalf("Check after 1, 3: got nil, want 0002 not applied")
	}
	if c, err := Migrate(ctx, db, testDialect, all); err != nil || c.From != 3 || c.To != 3 || !slices.Equal(c.Applied, []string{two.Name}) {
		t.Fatalf("migrate 1, 2, 3 (a second run of 0001 or 0003 would fail): got %+v, %v; want 0002 applied", c, err)
	}
	if err := Check(ctx, db, all); err != nil {
		t.Fatalf("Check after all: %v", err)
	}
	if got := recorded(t, db); !slices.Equal(got, []int{0, 1, 2, 3}) {
		t.Fatalf("recorded: got %v, want the shared numbering's mark 0 and 1, 2, 3", got)
	}
}

// TestMigrateRenumbers: a database that recorded its store's own
// numbering is renumbered once, runs nothing it ran before, and then
// gets the shared numbering's migrations it lacks.
func TestMigrateRenumbers(t *testing.T) {
	db := openTest(t)
	ctx := t.Context()
	// The store's own numbering: a as 1, c as 2; the shared one has b, a
	// change this store lacked, between them.
	own := testDialect
	own.Renumbered = map[int]int{1: 1, 2: 3}
	for _, q := range []string{testDialect.CreateTable, one.SQL, three.SQL, "INSERT INTO schema_migrations VALUES (1), (2)"} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	all := []Migration{one, two, three}
	c, err := Migrate(ctx, db, own, all)
	if err != nil || !c.Renumbered || c.From != 3 || c.To != 3 || !slices.Equal(c.Applied, []string{two.Name}) {
		t.Fatalf("migrate: got %+v, %v; want renumbered to 3 and 0002 applied", c, err)
	}
	if got := recorded(t, db); !slices.Equal(got, []int{0, 1, 2, 3}) {
		t.Fatalf("recorded: got %v, want 0, 1, 2, 3", got)
	}
	if c, err := Migrate(ctx, db, own, all); err != nil || c.Renumbered || len(c.Applied) != 0 {
		t.Fatalf("second migrate: got %+v, %v; want nothing done", c, err)
	}
}

// TestMigrateRefusesNewer: a database that records a migration the
// binary lacks, in either numbering, is refused before anything runs.
func TestMigrateRefusesNewer(t *testing.T) {
	ctx := t.Context()
	db := openTest(t)
	if _, err := Migrate(ctx, db, testDialect, []Migration{one, two}); err != nil {
		t.Fatalf("migrate 1, 2: %v", err)
	}
	if c, err := Migrate(ctx, db, testDialect, []Migration{one}); !errors.Is(err, ErrNewer) || len(c.Applied) != 0 || c.From != 2 {
		t.Fatalf("migrate 1 over 1, 2: got %+v, %v; want ErrNewer at version 2", c, err)
	}
	if err := Check(ctx, db, []Migration{one}); err != nil {
		t.Fatalf("Check 1 over 1, 2 (a store opened before the newer lapse migrated): got %v, want nil", err)
	}

	old := openTest(t)
	for _, q := range []string{testDialect.CreateTable, "INSERT INTO schema_migrations VALUES (1), (2)"} {
		if _, err := old.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	own := testDialect
	own.Renumbered = map[int]int{1: 1}
	if _, err := Migrate(ctx, old, own, []Migration{one, two}); !errors.Is(err, ErrNewer) {
		t.Fatalf("migrate over an unknown version of the own numbering: got %v, want ErrNewer", err)
	}
	if got := recorded(t, old); !slices.Equal(got, []int{1, 2}) {
		t.Fatalf("recorded after the refusal: got %v, want 1, 2 untouched", got)
	}
}

// TestOneNumbering: every backend has the same migrations, under the same
// numbers and names.
func TestOneNumbering(t *testing.T) {
	var first []string
	for _, b := range []string{"sqlite", "postgres", "mysql"} {
		ms, err := LoadMigrations(os.DirFS(filepath.Join("..", "..", b)), "migrations")
		if err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		var names []string
		for _, m := range ms {
			names = append(names, m.Name)
		}
		if first == nil {
			first = names
		} else if !slices.Equal(names, first) {
			t.Fatalf("%s migrations: got %v, want those of sqlite, %v", b, names, first)
		}
	}
}
