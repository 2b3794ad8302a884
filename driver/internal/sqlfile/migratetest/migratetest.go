// Package migratetest checks a SQL backend's migrations on a real
// database: a new database and one made by a lapse from before every
// store shared one numbering end with the same schema, the old one
// running nothing again; a database newer than the binary is refused.
package migratetest

import (
	"database/sql"
	"errors"
	"io/fs"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/lapsehq/lapse/driver"

	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/storetype"
)

// Backend is a SQL backend under test.
type Backend struct {
	// Fresh returns the URL of a new, empty database, dropped when t ends.
	Fresh func(t testing.TB) string
	// Open opens the driver at url as lapse does, migrating it, and
	// calls migrated with what it did to the schema.
	Open func(t *testing.T, url string, migrated func(storetype.SchemaChange)) (driver.Driver, error)
	// DB opens url with database/sql, closed when t ends.
	DB func(t testing.TB, url string) *sql.DB
	// Schema are queries whose rows, together, describe every table,
	// column, index, view and constraint of a database, in an order of
	// their own, and nothing else: two databases with the same schema
	// answer them alike.
	Schema []string
	// Dialect is the backend's, and Files holds its migrations, under
	// migrations/.
	Dialect sqlfile.Dialect
	Files   fs.FS
}

// Run runs the checks on b.
func Run(t *testing.T, b Backend) {
	ms, err := sqlfile.LoadMigrations(b.Files, "migrations")
	if err != nil {
		t.Fatalf("migrations: %v", err)
	}
	newest := len(ms)
	fresh := b.Fresh(t)
	change := b.open(t, fresh)
	if change.From != 0 || change.To != newest || len(change.Applied) != newest || change.Renumbered {
		t.Fatalf("new database: got %+v, want every migration applied, 0 -> %d", change, newest)
	}
	freshDB := b.DB(t, fresh)
	if again := b.open(t, fresh); again.From != newest || again.To != newest || len(again.Applied) > 0 || again.Renumbered {
		t.Fatalf("new database reopened: got %+v, want at %d with nothing done", again, newest)
	}
	want := b.schema(t, freshDB)
	if !strings.Contains(want, "coupons") {
		t.Fatalf("schema of a new database names no coupons table:\n%s", want)
	}

	t.Run("upgrade", func(t *testing.T) {
		own := slices.Sorted(maps.Keys(b.Dialect.Renumbered))
		// The previous release's database, and the first of an earlier
		// one that renumbering leaves with a lower migration to apply.
		versions := []int{own[len(own)-1]}
		for i := range own {
			if b.Dialect.Renumbered[own[i]] != i+1 {
				versions = append(versions, own[i])
				break
			}
		}
		for _, version := range versions {
			url := b.Fresh(t)
			db := b.DB(t, url)
			ran := b.migrateOwn(t, db, ms, version)
			change := b.open(t, url)
			if !change.Renumbered || change.To != newest {
				t.Fatalf("database at its own version %d: got %+v, want renumbered and migrated to %d", version, change, newest)
			}
			for _, name := range change.Applied {
				if ran[name] {
					t.Fatalf("database at its own version %d: %s applied again", version, name)
				}
			}
			if version == own[len(own)-1] && (len(change.Applied) != newest-len(own) || change.From != newest) {
				t.Fatalf("database of the previous release: got %+v, want at %d, with none applied but the %d this store lacked",
					change, newest, newest-len(own))
			}
			if got := b.schema(t, db); got != want {
				t.Fatalf("database at its own version %d, migrated: schema\n%s\nwant that of a new database:\n%s", version, got, want)
			}
			if got, want := recorded(t, db), recorded(t, freshDB); !slices.Equal(got, want) {
				t.Fatalf("database at its own version %d, migrated: records %v, want %v", version, got, want)
			}
		}
	})

	t.Run("newer", func(t *testing.T) {
		st, err := b.openStore(t, fresh, nil)
		if err != nil {
			t.Fatalf("open: %v", err)
		}
		if _, err := freshDB.ExecContext(t.Context(), b.Dialect.Insert, newest+1); err != nil {
			t.Fatalf("record migration %d: %v", newest+1, err)
		}
		if err := st.Ready(t.Context()); err != nil {
			t.Fatalf("Ready of a driver opened before a newer lapse migrated: got %v, want nil", err)
		}
		if _, err := b.openStore(t, fresh, nil); !errors.Is(err, sqlfile.ErrNewer) {
			t.Fatalf("open a newer schema: got %v, want ErrNewer", err)
		}
	})
}

// open opens the store at url, closed when t ends, and returns what it did
// to the schema.
func (b Backend) open(t *testing.T, url string) storetype.SchemaChange {
	t.Helper()
	var change storetype.SchemaChange
	if _, err := b.openStore(t, url, func(c storetype.SchemaChange) { change = c }); err != nil {
		t.Fatalf("open: %v", err)
	}
	return change
}

// openStore opens the driver at url, closed when t ends.
func (b Backend) openStore(t *testing.T, url string, migrated func(storetype.SchemaChange)) (driver.Driver, error) {
	st, err := b.Open(t, url, migrated)
	if err == nil {
		t.Cleanup(func() { st.Close() })
	}
	return st, err
}

// schema returns the rows of b.Schema on db, a line each.
func (b Backend) schema(t *testing.T, db *sql.DB) string {
	t.Helper()
	var out strings.Builder
	for _, q := range b.Schema {
		rows, err := db.QueryContext(t.Context(), q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		cols, err := rows.Columns()
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		cells := make([]sql.NullString, len(cols))
		dest := make([]any, len(cols))
		for i := range cells {
			dest[i] = &cells[i]
		}
		for rows.Next() {
			if err := rows.Scan(dest...); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			for _, c := range cells {
				out.WriteString(c.String + "\t")
			}
			out.WriteByte('\n')
		}
		if err := rows.Close(); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	return out.String()
}

// migrateOwn brings db to version of the backend's own numbering, from
// before every store shared one, as the lapse of then did: the same
// files, in that numbering's order, recorded under its numbers. It
// returns the names of those it ran.
func (b Backend) migrateOwn(t *testing.T, db *sql.DB, ms []sqlfile.Migration, version int) map[string]bool {
	t.Helper()
	var own []sqlfile.Migration
	for v, shared := range b.Dialect.Renumbered {
		if v <= version {
			m := ms[shared-1]
			own = append(own, sqlfile.Migration{Version: v, Name: m.Name, SQL: m.SQL})
		}
	}
	slices.SortFunc(own, func(a, b sqlfile.Migration) int { return a.Version - b.Version })
	d := b.Dialect
	d.Renumbered = nil
	change, err := sqlfile.Migrate(t.Context(), db, d, own)
	if err != nil {
		t.Fatalf("migrate to own version %d: %v", version, err)
	}
	// Migrate marks the versions as shared; then, none was.
	if _, err := db.ExecContext(t.Context(), "DELETE FROM schema_migrations WHERE version = 0"); err != nil {
		t.Fatalf("unmark: %v", err)
	}
	ran := map[string]bool{}
	for _, name := range change.Applied {
		ran[name] = true
	}
	return ran
}

// recorded returns the versions db records, in order.
func recorded(t *testing.T, db *sql.DB) []int {
	t.Helper()
	rows, err := db.QueryContext(t.Context(), "SELECT version FROM schema_migrations ORDER BY version")
	if err != nil {
		t.Fatalf("schema_migrations: %v", err)
	}
	defer rows.Close()
	var vs []int
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			t.Fatalf("schema_migrations: %v", err)
		}
		vs = append(vs, v)
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("schema_migrations: %v", err)
	}
	return vs
}

// Together checks what instances opening one new database at once did to
// its schema: one applied every migration, the others none.
func Together(t *testing.T, changes []storetype.SchemaChange) {
	t.Helper()
	migrated := 0
	for _, c := range changes {
		if len(c.Applied) > 0 {
			migrated++
		}
		if c.To == 0 || len(c.Applied) > 0 && (c.From != 0 || len(c.Applied) != c.To) || len(c.Applied) == 0 && c.From != c.To {
			t.Fatalf("instances opening at once: one got %+v, want every migration applied or none", c)
		}
	}
	if migrated != 1 {
		t.Fatalf("instances opening at once: %d migrated, want 1", migrated)
	}
}
