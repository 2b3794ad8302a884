package mysql

import (
	"context"
	"database/sql"
	"embed"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/internal/sqlfile/querytest"
)

// checked is the queries sqlc checks, as written.
//
//go:embed internal/dbsqlc/*.sql
var checked embed.FS

// QueryText returns the named query, embedded or checked by sqlc (its
// sqlc.arg and sqlc.narg names written ?, as sqlc writes them), with its
// list, if it has one, written out for n elements: for tests that read
// how the server plans it.
func QueryText(name string, n int) string {
	if q, ok := queries[name]; ok {
		if n > 0 {
			q = expand(q, n)
		}
		return q
	}
	q := regexp.MustCompile(`sqlc\.n?arg\(\w+\)`).ReplaceAllString(querytest.Checked(checked, "internal/dbsqlc/*.sql", name), "?")
	if n > 0 {
		q = regexp.MustCompile(`sqlc\.slice\(\w+\)`).ReplaceAllString(q, strings.TrimSuffix(strings.Repeat("?, ", n), ", "))
	}
	return q
}

// MigrateTo brings the database at rawURL up to migration version and no
// further: for tests of a later migration over data stored before it.
func MigrateTo(ctx context.Context, rawURL string, version int) error {
	cfg, err := Config(rawURL)
	if err != nil {
		return err
	}
	db, err := sql.Open("mysql", cfg.FormatDSN())
	if err != nil {
		return err
	}
	defer db.Close()
	ms, err := sqlfile.LoadMigrations(files, "migrations")
	if err != nil {
		return err
	}
	_, err = migrate(ctx, db, slices.DeleteFunc(ms, func(m sqlfile.Migration) bool { return m.Version > version }))
	return err
}

// QueryNames names every embedded query.
func QueryNames() []string { return slices.Collect(maps.Keys(queries)) }

// Dialect and Files are the migrator's, for the migration tests.
var Dialect, Files = dialect, files

// Batch is a write transaction's batch (see batch), for its tests.
type Batch = batch

// NewBatch returns the batch of tx.
func NewBatch(tx *sql.Tx) *Batch { return &batch{tx: tx} }

// Hold holds a blind write (see batch.hold).
func (b *batch) Hold(query string, args ...any) { b.hold(query, args...) }

// Flush sends the held writes (see batch.flush).
func (b *batch) Flush(ctx context.Context) error { return b.flush(ctx) }

// CountStatements makes tx, a write transaction of the driver, count the
// statements it sends the server, and returns how many it has sent since.
func CountStatements(tx driver.ExecutorTx) func() int {
	e := tx.(*executor)
	c := &counter{querier: e.q}
	e.q = c
	return func() int { return c.n }
}

// counter is a querier that counts the statements it runs.
type counter struct {
	querier
	n int
}

func (c *counter) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	c.n++
	return c.querier.ExecContext(ctx, query, args...)
}

func (c *counter) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	c.n++
	return c.querier.QueryContext(ctx, query, args...)
}

func (c *counter) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	c.n++
	return c.querier.QueryRowContext(ctx, query, args...)
}
