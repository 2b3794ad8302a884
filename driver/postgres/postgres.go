package postgres

import (
	"cmp"
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/storetype"
)

//go:embed migrations/*.sql queries/*.sql
var files embed.FS

var queries = sqlfile.MustLoadQueries(files, "queries/*.sql")

var dialect = sqlfile.Dialect{
	CreateTable: "CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY)",
	Insert:      "INSERT INTO schema_migrations (version) VALUES ($1)",
	// PostgreSQL's own numbering had no byte_ids nor shard_due.
	Renumbered: map[int]int{1: 1, 2: 2, 3: 3, 4: 4, 5: 6, 6: 7, 7: 8, 8: 10, 9: 11,
		10: 12, 11: 13, 12: 14, 13: 15, 14: 16, 15: 17, 16: 18, 17: 19},
}

// Options tune a store on PostgreSQL. The zero value works.
type Options struct {
	// OnMigrated, if set, hears what the opening did to the schema.
	OnMigrated func(storetype.SchemaChange)
	// MaxConns bounds the request pool, the connections of the users'
	// transactions; 0 means the URL's pool_max_conns or
	// sqlfile.RequestConns().
	MaxConns int32
	// ReadConns bounds the read pool, the connections of reads outside
	// a transaction (see sqlfile.ReadConns); 0 means sqlfile.ReadConns().
	ReadConns int32
	// EngineConns bounds the engine pool, the connections of background
	// transactions and of the engine's reads (see sqlfile.EngineConns); 0
	// means sqlfile.EngineConns().
	EngineConns int32
	// IdleTxTimeout, if set, has the server end a session whose write
	// transaction sits idle longer: an instance paused or cut off in the
	// middle of one has it rolled back, and its locks (rows in a batch,
	// the feed's position) released, instead of holding up every other
	// instance. Lapse's own transactions are never idle for long. It is
	// a startup parameter on a direct connection; behind a pooler, which
	// refuses those, each write transaction sets it for itself (see
	// beginQuery).
	IdleTxTimeout time.Duration
}

// Driver is the PostgreSQL driver of lapse's store.
type Driver struct {
	// pool is the request pool, reads the read pool, engine the engine
	// pool (see sqlfile.RequestConns).
	pool, reads, engine *pgxpool.Pool
	// db is the pool seen through database/sql, for the shared migrator.
	db         *sql.DB
	migrations []sqlfile.Migration
	// writeTx begins the write transactions (Begin).
	writeTx pgx.TxOptions
	// pooled: a pooler stands between lapse and PostgreSQL (behindPooler).
	pooled bool
}

var _ driver.Driver = (*Driver)(nil)

// Open connects to the database a postgres:// URL names, brings its schema
// up to date (refusing one newer than this lapse, sqlfile.ErrNewer) and
// returns its driver. The URL may set search_path
// (or any other run-time parameter: not through PgBouncer, which refuses
// them, see docs/production.md), pgxpool's pool_* settings and pgx's
// default_query_exec_mode (lapse's own default is pgx's, or
// pooledExecMode behind a pooler).
//
// The same URL works directly and through PgBouncer, in session or in
// transaction pooling: lapse relies on no session state across
// transactions (see session.go).
func Open(ctx context.Context, url string, opts Options) (*Driver, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	switch {
	case opts.MaxConns > 0:
		cfg.MaxConns = opts.MaxConns
	case !urlSets(url, "pool_max_conns"):
		cfg.MaxConns = int32(sqlfile.RequestConns())
	}
	pooled, err := behindPooler(ctx, &cfg.ConnConfig.Config, opts.IdleTxTimeout)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	var writeTx pgx.TxOptions
	switch {
	case pooled:
		writeTx.BeginQuery = beginQuery(opts.IdleTxTimeout)
		if !urlSets(url, "default_query_exec_mode") {
			cfg.ConnConfig.DefaultQueryExecMode = pooledExecMode
		}
	case opts.IdleTxTimeout > 0:
		cfg.ConnConfig.RuntimeParams[idleParam] = strconv.FormatInt(opts.IdleTxTimeout.Milliseconds(), 10)
	}
	cfg.AfterConnect = func(_ context.Context, c *pgx.Conn) error {
		// Times come back in UTC, as they are written.
		c.TypeMap().RegisterType(&pgtype.Type{
			Name: "timestamptz", OID: pgtype.TimestamptzOID,
			Codec: &pgtype.TimestamptzCodec{ScanLocation: time.UTC},
		})
		return nil
	}
	pools, err := newPools(ctx, cfg, cmp.Or(opts.ReadConns, int32(sqlfile.ReadConns())), cmp.Or(opts.EngineConns, int32(sqlfile.EngineConns())))
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	s := &Driver{pool: pools[0], reads: pools[1], engine: pools[2], db: stdlib.OpenDBFromPool(pools[0]),
		writeTx: writeTx, pooled: pooled}
	change, err := s.migrate(ctx)
	if err != nil {
		s.Close()
		return nil, fmt.Errorf("postgres %s@%s/%s: %w", cfg.ConnConfig.User, cfg.ConnConfig.Host, cfg.ConnConfig.Database, err)
	}
	if opts.OnMigrated != nil {
		opts.OnMigrated(change)
	}
	return s, nil
}

// newPools returns the request pool cfg sets up, and the read and engine
// pools, its copies of up to reads and engine connections.
func newPools(ctx context.Context, cfg *pgxpool.Config, reads, engine int32) ([]*pgxpool.Pool, error) {
	var pools []*pgxpool.Pool
	for _, n := range []int32{cfg.MaxConns, reads, engine} {
		c := cfg.Copy()
		c.MaxConns, c.MinConns = n, min(c.MinConns, n)
		p, err := pgxpool.NewWithConfig(ctx, c)
		if err != nil {
			for _, p := range pools {
				p.Close()
			}
			return nil, err
		}
		pools = append(pools, p)
	}
	return pools, nil
}

// urlSets reports whether url sets the parameter key.
func urlSets(url, key string) bool {
	cfg, err := pgconn.ParseConfig(url)
	if err != nil {
		return false
	}
	_, ok := cfg.RuntimeParams[key]
	return ok
}

// Close closes the pools.
func (s *Driver) Close() error {
	err := s.db.Close()
	s.pool.Close()
	s.reads.Close()
	s.engine.Close()
	return err
}

// Ready reports whether the database answers and every migration is
// applied.
func (s *Driver) Ready(ctx context.Context) error {
	if err := sqlfile.Check(ctx, s.db, s.migrations); err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	return nil
}

// interpret turns driver errors into store errors.
func interpret(err error) error {
	var pgErr *pgconn.PgError
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return storetype.ErrNotFound
	case errors.As(err, &pgErr) && pgErr.Code == "23505" && pgErr.ConstraintName == "idempotency_pkey":
		// A request under this key committed while this one ran.
		return driver.ErrRequestTaken
	}
	return err
}

// nullTime stores a zero time as NULL.
func nullTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

// orZero reads a nullable column back as the zero value.
func orZero[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

func nullString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
