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
// Versions must be distinct but may have gaps: numbers are handed out to
// changes ahead of time, so a branch may lack one that lands later.
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
	for i := 1; i < len(ms); i++ {
		if ms[i].Version == ms[i-1].Version {
			return nil, fmt.Errorf("migrations %s and %s: same version", ms[i-1].Name, ms[i].Name)
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
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	BeginTx(ctx context.Context, opts *sql.TxOptions) (*sql.Tx, error)
}

// Migrate applies, each in its own transaction and in version order, the
// migrations the database has not recorded, a late-landing lower version
// included. It returns the names of those it applied, in order.
func Migrate(ctx context.Context, db DB, d Dialect, ms []Migration) ([]string, error) {
	if _, err := db.ExecContext(ctx, d.CreateTable); err != nil {
		return nil, fmt.Errorf("migrate: %w", err)
	}
	todo, err := Pending(ctx, db, ms)
	if err != nil {
		return nil, err
	}
	var applied []string
	for _, m := range todo {
		if err := apply(ctx, db, d, m); err != nil {
			return applied, fmt.Errorf("migrate %s: %w", m.Name, err)
		}
		applied = append(applied, m.Name)
	}
	return applied, nil
}

// Pending returns the migrations of ms the database has not recorded.
func Pending(ctx context.Context, db DB, ms []Migration) ([]Migration, error) {
	rows, err := db.QueryContext(ctx, "SELECT version FROM schema_migrations")
	if err != nil {
		return nil, fmt.Errorf("migration versions: %w", err)
	}
	defer rows.Close()
	applied := map[int]bool{}
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			return nil, fmt.Errorf("migration versions: %w", err)
		}
		applied[v] = true
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("migration versions: %w", err)
	}
	var todo []Migration
	for _, m := range ms {
		if !applied[m.Version] {
			todo = append(todo, m)
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
