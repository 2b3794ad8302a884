package sqlfile

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/lapsehq/lapse/storetype"
)

// Migration is one numbered schema step, from a file named NNNN_what.sql.
type Migration struct {
	Version int
	Name    string
	SQL     string
}

// LoadMigrations reads the migrations in dir of fsys, in version order.
//
// A schema change has one number on every store, so versions run 1, 2,
// 3… without a gap and each backend has the same files: a change that
// one store does not need is a file there saying why, with nothing to
// run. A change takes the next number free on the main branch when it
// lands there; a branch whose number was taken meanwhile renumbers its
// files before it lands. A number is never reused nor moved once
// released: databases record it.
func LoadMigrations(fsys fs.FS, dir string) ([]Migration, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, err
	}
	var ms []Migration
	for _, e := range entries {
		num, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v < 1 || !strings.HasSuffix(e.Name(), ".sql") {
			return nil, fmt.Errorf("migration %s: want NNNN_name.sql", e.Name())
		}
		b, err := fs.ReadFile(fsys, path.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		ms = append(ms, Migration{Version: v, Name: e.Name(), SQL: string(b)})
	}
	slices.SortFunc(ms, func(a, b Migration) int { return a.Version - b.Version })
	for i, m := range ms {
		if m.Version != i+1 {
			return nil, fmt.Errorf("migration %s: want version %d, as versions run 1, 2, 3… without a gap", m.Name, i+1)
		}
	}
	return ms, nil
}

// Dialect is what Migrate needs to know of a database.
type Dialect struct {
	// CreateTable creates schema_migrations(version) if it is missing.
	CreateTable string
	// Insert records one applied version; its one parameter is the version.
	Insert string
	// Split, if set, splits a migration into statements for drivers that
	// run one statement per Exec.
	Split func(string) []string
	// Renumbered maps each version the store recorded before every store
	// shared one numbering (each backend had its own until then) to its
	// shared one.
	Renumbered map[int]int
}

// shared is the version recorded, besides the migrations, by a database
// whose versions are the shared numbering: one without it recorded its
// store's own, and Migrate renumbers it.
const shared = 0

// ErrNewer is the error of a database that records a migration this lapse
// does not have: a newer lapse migrated it.
var ErrNewer = errors.New("the database schema is newer than this lapse")

// DB is what Migrate runs on: a *sql.DB, or one *sql.Conn of it when the
// caller holds a session lock around the migration.
type DB interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	BeginTx(ctx context.Context, opts *sql.TxOptions) (*sql.Tx, error)
}

// Migrate brings the database's schema to ms. It renumbers, once and in
// one transaction, the versions a database recorded in its store's own
// numbering; refuses, with ErrNewer, a database that records a version ms
// lacks; then applies, each in its own transaction and in version order,
// the migrations the database has not recorded.
func Migrate(ctx context.Context, db DB, d Dialect, ms []Migration) (storetype.SchemaChange, error) {
	var change storetype.SchemaChange
	if _, err := db.ExecContext(ctx, d.CreateTable); err != nil {
		return change, fmt.Errorf("migrate: %w", err)
	}
	recorded, renumbered, err := renumber(ctx, db, d)
	if err != nil {
		return change, fmt.Errorf("migrate: %w", err)
	}
	change.From, change.To, change.Renumbered = latest(recorded), latest(recorded), renumbered
	todo, err := pending(recorded, ms)
	if err != nil {
		return change, err
	}
	for _, m := range todo {
		if err := apply(ctx, db, d, m); err != nil {
			return change, fmt.Errorf("migrate %s: %w", m.Name, err)
		}
		change.Applied = append(change.Applied, m.Name)
		change.To = max(change.To, m.Version)
	}
	return change, nil
}

// Check reports whether the database records every migration of ms. A
// version ms lacks is no error here: an instance that started before a
// newer lapse migrated the database keeps serving while the instances
// roll over to the newer one; only Migrate, as a store opens, refuses it.
func Check(ctx context.Context, db DB, ms []Migration) error {
	recorded, err := versions(ctx, db)
	if err != nil {
		return err
	}
	for _, m := range ms {
		if !recorded[m.Version] {
			return fmt.Errorf("migration %s not applied", m.Name)
		}
	}
	return nil
}

// renumber returns the versions the database records, in the shared
// numbering: a new database, recording none, is marked as numbered so;
// one that records its store's own numbering is renumbered through
// d.Renumbered. It reports whether it renumbered.
func renumber(ctx context.Context, db DB, d Dialect) (map[int]bool, bool, error) {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return nil, false, err
	}
	defer tx.Rollback()
	own, err := versions(ctx, tx)
	if err != nil || own[shared] {
		return own, false, err
	}
	recorded := map[int]bool{shared: true}
	for v := range own {
		n, ok := d.Renumbered[v]
		if !ok {
			return nil, false, fmt.Errorf("%w: it records version %d in its store's own numbering, which this lapse does not know", ErrNewer, v)
		}
		recorded[n] = true
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM schema_migrations"); err != nil {
		return nil, false, err
	}
	for _, v := range slices.Sorted(maps.Keys(recorded)) {
		if _, err := tx.ExecContext(ctx, d.Insert, v); err != nil {
			return nil, false, err
		}
	}
	return recorded, len(own) > 0, tx.Commit()
}

// querier is a pool, a connection or a transaction.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// versions returns the versions schema_migrations records.
func versions(ctx context.Context, q querier) (map[int]bool, error) {
	rows, err := q.QueryContext(ctx, "SELECT version FROM schema_migrations")
	if err != nil {
		return nil, fmt.Errorf("migration versions: %w", err)
	}
	defer rows.Close()
	recorded := map[int]bool{}
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			return nil, fmt.Errorf("migration versions: %w", err)
		}
		recorded[v] = true
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("migration versions: %w", err)
	}
	return recorded, nil
}

// latest is the schema's version: the highest recorded, 0 for none.
func latest(recorded map[int]bool) int {
	v := shared
	for r := range recorded {
		v = max(v, r)
	}
	return v
}

// pending returns the migrations of ms not recorded, and ErrNewer if a
// version recorded is not in ms.
func pending(recorded map[int]bool, ms []Migration) ([]Migration, error) {
	known := map[int]bool{shared: true}
	var todo []Migration
	for _, m := range ms {
		known[m.Version] = true
		if !recorded[m.Version] {
			todo = append(todo, m)
		}
	}
	for _, v := range slices.Sorted(maps.Keys(recorded)) {
		if !known[v] {
			return nil, fmt.Errorf("%w: it records migration %d, and this lapse knows them up to %d; "+
				"run a lapse that knows it, or restore the backup taken before the upgrade", ErrNewer, v, latest(known))
		}
	}
	return todo, nil
}

func apply(ctx context.Context, db DB, d Dialect, m Migration) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	stmts := []string{m.SQL}
	if d.Split != nil {
		stmts = d.Split(m.SQL)
	}
	for _, s := range stmts {
		if _, err := tx.ExecContext(ctx, s); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, d.Insert, m.Version); err != nil {
		return err
	}
	return tx.Commit()
}
