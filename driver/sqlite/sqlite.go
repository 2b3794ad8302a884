package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/lapsehq/lapse/driver"

	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/sqlite/internal/dbsqlc"
	"github.com/lapsehq/lapse/storetype"
)

//go:embed migrations/*.sql queries/*.sql
var files embed.FS

var queries = sqlfile.MustLoadQueries(files, "queries/*.sql")

var dialect = sqlfile.Dialect{
	CreateTable: "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY)",
	Insert:      "INSERT INTO schema_migrations (version) VALUES (?)",
	// SQLite's own numbering had no 0004 and shards as 0007_leases.
	Renumbered: map[int]int{1: 1, 2: 2, 3: 3, 5: 7, 6: 6, 7: 4, 8: 8, 9: 10, 10: 12,
		11: 13, 12: 14, 13: 15, 14: 16, 15: 17, 16: 18, 17: 19},
}

// Options tune a store on SQLite. The zero value works.
type Options struct {
	// OnMigrated, if set, hears what the opening did to the schema.
	OnMigrated func(storetype.SchemaChange)
	// ReadConns bounds the read pool; 0 means 4.
	ReadConns int
}

// Driver is the SQLite driver of lapse's store: one writer connection, whose
// transactions queue users before background work, and a read pool.
type Driver struct {
	w, r       *sql.DB
	stmts      map[string]*sql.Stmt // every query, prepared on the writer
	sqlc       *dbsqlc.Queries      // sqlc's queries, prepared on the writer
	gate       *gate                // orders users and background work on the writer
	ckpt       *checkpointer
	migrations []sqlfile.Migration
}

var _ driver.Driver = (*Driver)(nil)

// writerCacheKiB is the page cache of the writer connection. Bulk
// issuance and drains touch index pages all over (the users' index is in
// user order); SQLite's default of 2 MiB sends them back to the OS page by
// page, which a profile of bulk issuance put at a third of its CPU.
const writerCacheKiB = 32 << 10

// Open opens (creating if needed) the database file at path, brings its
// schema up to date (refusing one newer than this lapse,
// sqlfile.ErrNewer) and returns its driver.
func Open(ctx context.Context, path string, opts Options) (*Driver, error) {
	file := "file:" + (&url.URL{Path: path}).EscapedPath() + "?_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_txlock=immediate"
	dsn := file + "&_pragma=busy_timeout(10000)"
	w, err := sql.Open("sqlite", dsn+fmt.Sprintf("&_pragma=cache_size(-%d)&_pragma=wal_autocheckpoint(%d)", writerCacheKiB, walBackstopPages))
	if err != nil {
		return nil, fmt.Errorf("sqlite open: %w", err)
	}
	w.SetMaxOpenConns(1)
	w.SetConnMaxIdleTime(0)
	ms, err := sqlfile.LoadMigrations(files, "migrations")
	if err != nil {
		w.Close()
		return nil, err
	}
	change, err := sqlfile.Migrate(ctx, w, dialect, ms)
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("sqlite %s: %w", path, err)
	}
	if opts.OnMigrated != nil {
		opts.OnMigrated(change)
	}
	r, err := sql.Open("sqlite", dsn+"&_pragma=query_only(1)")
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("sqlite open: %w", err)
	}
	r.SetMaxOpenConns(orDefault(opts.ReadConns, 4))
	ckpt, err := startCheckpointer(file + fmt.Sprintf("&_pragma=busy_timeout(%d)", truncateWait.Milliseconds()))
	if err != nil {
		w.Close()
		r.Close()
		return nil, fmt.Errorf("sqlite open: %w", err)
	}
	s := &Driver{w: w, r: r, stmts: map[string]*sql.Stmt{}, gate: newGate(), ckpt: ckpt, migrations: ms}
	for name, text := range queries {
		st, err := w.PrepareContext(ctx, text)
		if err != nil {
			s.Close()
			return nil, fmt.Errorf("sqlite prepare %s: %w", name, err)
		}
		s.stmts[name] = st
	}
	if s.sqlc, err = dbsqlc.Prepare(ctx, w); err != nil {
		s.Close()
		return nil, fmt.Errorf("sqlite prepare: %w", err)
	}
	return s, nil
}

func orDefault(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

// Close stops the checkpointer and closes the pools.
func (s *Driver) Close() error {
	for _, st := range s.stmts {
		st.Close()
	}
	if s.sqlc != nil {
		s.sqlc.Close()
	}
	return errors.Join(s.ckpt.stop(), s.r.Close(), s.w.Close())
}

// Ready reports whether both pools answer and every migration is applied.
func (s *Driver) Ready(ctx context.Context) error {
	if err := s.r.PingContext(ctx); err != nil {
		return err
	}
	if err := sqlfile.Check(ctx, s.w, s.migrations); err != nil {
		return fmt.Errorf("sqlite: %w", err)
	}
	return nil
}

// interpret turns driver errors into store errors.
func interpret(err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return storetype.ErrNotFound
	}
	return err
}

// Classify turns a write transaction's error into a store error. SQLite's
// one writer never deadlocks: nothing is worth running again.
func (s *Driver) Classify(err error) (error, bool) { return interpret(err), false }

// Busy reports whether a user's write waits for the writer.
func (s *Driver) Busy() bool { return s.gate.busy() }

// ms and at convert times to and from the unix milliseconds stored.
func ms(t time.Time) int64 { return t.UnixMilli() }

func at(v int64) time.Time { return time.UnixMilli(v).UTC() }

// nullMS stores a zero time as NULL.
func nullMS(t time.Time) sql.NullInt64 {
	return sql.NullInt64{Int64: t.UnixMilli(), Valid: !t.IsZero()}
}

// msNotNull is t in a column that may be NULL, as a value that is not:
// sqlc types a parameter compared with such a column as the column.
func msNotNull(t time.Time) sql.NullInt64 { return sql.NullInt64{Int64: ms(t), Valid: true} }

func atNull(v sql.NullInt64) time.Time {
	if !v.Valid {
		return time.Time{}
	}
	return at(v.Int64)
}

func nullString(s string) sql.NullString { return sql.NullString{String: s, Valid: s != ""} }
