package sqlfile

import (
	"database/sql"
	"path/filepath"
	"slices"
	"testing"

	_ "modernc.org/sqlite"
)

// TestMigrateLateVersion: a migration whose number lands after a higher
// one was applied is still applied, and nothing runs twice.
func TestMigrateLateVersion(t *testing.T) {
	db, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "m.db"))
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	defer db.Close()
	d := Dialect{
		CreateTable: "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY)",
		Insert:      "INSERT INTO schema_migrations (version) VALUES (?)",
	}
	one := Migration{Version: 1, Name: "0001_a.sql", SQL: "CREATE TABLE a (x INTEGER)"}
	two := Migration{Version: 2, Name: "0002_b.sql", SQL: "CREATE TABLE b (x INTEGER)"}
	three := Migration{Version: 3, Name: "0003_c.sql", SQL: "CREATE TABLE c (x INTEGER)"}
	ctx := t.Context()
	if applied, err := Migrate(ctx, db, d, []Migration{one, three}); err != nil || !slices.Equal(applied, []string{one.Name, three.Name}) {
		t.Fatalf("migrate 1, 3: got %v, %v; want both applied", applied, err)
	}
	all := []Migration{one, two, three}
	if p, err := Pending(ctx, db, all); err != nil || len(p) != 1 || p[0].Version != 2 {
		t.Fatalf("pending after 1, 3: got %+v, %v; want 0002", p, err)
	}
	if applied, err := Migrate(ctx, db, d, all); err != nil || !slices.Equal(applied, []string{two.Name}) {
		t.Fatalf("migrate 1, 2, 3 (a second run of 0001 or 0003 would fail): got %v, %v; want 0002 applied", applied, err)
	}
	if p, err := Pending(ctx, db, all); err != nil || len(p) != 0 {
		t.Fatalf("pending after all: got %+v, %v; want none", p, err)
	}
	if _, err := db.ExecContext(ctx, "INSERT INTO b (x) VALUES (1)"); err != nil {
		t.Fatalf("table of the late migration: %v", err)
	}
}
