package sqlfile

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
)

// Migration is one numbered schema step, from a file named NNNN_what.sql.
type Migration struct {
	Version int
	Name    string
	SQL     string
}

// LoadMigrations reads the migrations in dir of fsys, in version order.
func LoadMigrations(fsys fs.FS, dir string) ([]Migration, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, err
	}
	var ms []Migration
	for _, e := range entries {
		num, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || !strings.HasSuffix(e.Name(), ".sql") {
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
			return nil, fmt.Errorf("migration %s: want version %d", m.Name, i+1)
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
}

// DB is what Migrate runs on: a *sql.DB, or one *sql.Conn of it when the
// caller holds a session lock around the migration.
type DB interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	BeginTx(ctx context.Context, opts *sql.TxOptions) (*sql.Tx, error)
}

// Migrate applies, each in its own transaction, the migrations newer than
// the database's version. It returns the version the database is at.
func Migrate(ctx context.Context, db DB, d Dialect, ms []Migration) (int, error) {
	if _, err := db.ExecContext(ctx, d.CreateTable); err != nil {
		return 0, fmt.Errorf("migrate: %w", err)
	}
	current, err := Version(ctx, db)
	if err != nil {
		return 0, err
	}
	for _, m := range ms[min(current, len(ms)):] {
		if err := apply(ctx, db, d, m); err != nil {
			return current, fmt.Errorf("migrate %s: %w", m.Name, err)
		}
		current = m.Version
	}
	return current, nil
}

// Version returns the newest applied migration, 0 for none.
func Version(ctx context.Context, db DB) (int, error) {
	var v sql.NullInt64
	if err := db.QueryRowContext(ctx, "SELECT max(version) FROM schema_migrations").Scan(&v); err != nil {
		return 0, fmt.Errorf("migration version: %w", err)
	}
	return int(v.Int64), nil
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
