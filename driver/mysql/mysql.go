package mysql

import (
	"cmp"
	"context"
	"database/sql"
	sqldriver "database/sql/driver"
	"embed"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/lapsehq/lapse/driver"

	"github.com/go-sql-driver/mysql"

	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/storetype"
)

//go:embed migrations/*.sql queries/*.sql
var files embed.FS

var queries = sqlfile.MustLoadQueries(files, "queries/*.sql")

var dialect = sqlfile.Dialect{
	CreateTable: "CREATE TABLE IF NOT EXISTS schema_migrations (version INT NOT NULL PRIMARY KEY) ENGINE = InnoDB",
	Insert:      "INSERT INTO schema_migrations (version) VALUES (?)",
	Split:       split,
	// MySQL's own numbering had outbox_delivery as 0006, after shards,
	// byte_ids and idempotency_expiry.
	Renumbered: map[int]int{1: 1, 2: 2, 3: 4, 4: 5, 5: 6, 6: 3, 7: 7, 8: 8, 9: 9, 10: 10,
		11: 11, 12: 12, 13: 13, 14: 14, 15: 15, 16: 16, 17: 17, 18: 18, 19: 19},
}

// Options tune a store on MySQL. The zero value works.
type Options struct {
	// OnMigrated, if set, hears what the opening did to the schema.
	OnMigrated func(storetype.SchemaChange)
	// Conns bounds the request pool, the connections of the users'
	// transactions; 0 means sqlfile.RequestConns().
	Conns int
	// ReadConns bounds the read pool, the connections of reads outside
	// a transaction (see sqlfile.ReadConns); 0 means sqlfile.ReadConns().
	ReadConns int
	// EngineConns bounds the engine pool, the connections of background
	// transactions and of the engine's reads (see sqlfile.EngineConns); 0
	// means sqlfile.EngineConns().
	EngineConns int
	// IdleTxTimeout, if set, has the server end a session whose
	// transaction sits idle longer (in whole seconds, at least one): an
	// instance paused or cut off in the middle of one has it rolled
	// back, and its locks released, instead of holding up every other
	// instance. MariaDB has it (idle_transaction_timeout); on a server
	// without it, it is left unset.
	IdleTxTimeout time.Duration
}

// Driver is the MySQL driver of lapse's store.
type Driver struct {
	// db is the request pool, reads the read pool, engine the engine
	// pool (see sqlfile.RequestConns).
	db, reads, engine *sql.DB
	migrations        []sqlfile.Migration
}

var _ driver.Driver = (*Driver)(nil)

// Open connects to the database a URL names,
// mysql://user:password@host:port/database[?driver-params], brings its
// schema up to date (refusing one newer than this lapse,
// sqlfile.ErrNewer) and returns its driver.
func Open(ctx context.Context, rawURL string, opts Options) (*Driver, error) {
	cfg, err := Config(rawURL)
	if err != nil {
		return nil, err
	}
	conn, err := mysql.NewConnector(cfg)
	if err != nil {
		return nil, fmt.Errorf("mysql open: %w", err)
	}
	rc := readCommitted{conn, opts.IdleTxTimeout}
	s := &Driver{
		db:     pool(rc, opts.Conns, sqlfile.RequestConns()),
		reads:  pool(rc, opts.ReadConns, sqlfile.ReadConns()),
		engine: pool(rc, opts.EngineConns, sqlfile.EngineConns()),
	}
	ms, err := sqlfile.LoadMigrations(files, "migrations")
	if err != nil {
		s.Close()
		return nil, err
	}
	change, err := migrate(ctx, s.db, ms)
	if err != nil {
		s.Close()
		return nil, fmt.Errorf("mysql %s/%s: %w", cfg.Addr, cfg.DBName, err)
	}
	if opts.OnMigrated != nil {
		opts.OnMigrated(change)
	}
	s.migrations = ms
	return s, nil
}

// pool returns a pool of up to conns connections, def if conns is 0.
func pool(c sqldriver.Connector, conns, def int) *sql.DB {
	db := sql.OpenDB(c)
	conns = cmp.Or(conns, def)
	db.SetMaxOpenConns(conns)
	db.SetMaxIdleConns(conns)
	db.SetConnMaxLifetime(5 * time.Minute)
	return db
}

// Config turns a mysql:// URL into the driver's configuration, with what
// the store relies on set whatever the URL says: times in UTC to the
// millisecond, parameters interpolated client-side (one round trip a
// statement), and queries of many statements, which a transaction's
// batch sends (see batch). Every query is lapse's own text with its
// arguments escaped by the driver, never text built from input.
func Config(rawURL string) (*mysql.Config, error) {
	u, err := url.Parse(rawURL)
	db := ""
	if err == nil {
		db = strings.Trim(u.Path, "/")
	}
	if err != nil || u.Scheme != "mysql" || u.Host == "" || db == "" || strings.Contains(db, "/") {
		return nil, fmt.Errorf("mysql: bad store URL %q: want mysql://user:password@host:port/database", rawURL)
	}
	cfg, err := mysql.ParseDSN("/?" + u.RawQuery)
	if err != nil {
		return nil, fmt.Errorf("mysql: store URL parameters: %w", err)
	}
	cfg.Net, cfg.Addr, cfg.DBName = "tcp", u.Host, db
	if u.Port() == "" {
		cfg.Addr = net.JoinHostPort(u.Hostname(), "3306")
	}
	cfg.User = u.User.Username()
	cfg.Passwd, _ = u.User.Password()
	cfg.ParseTime, cfg.Loc, cfg.InterpolateParams, cfg.MultiStatements = true, time.UTC, true, true
	if cfg.Params == nil {
		cfg.Params = map[string]string{}
	}
	cfg.Params["time_zone"] = "'+00:00'"
	if err := cfg.Apply(mysql.TimeTruncate(time.Millisecond)); err != nil {
		return nil, err
	}
	return cfg, nil
}

// readCommitted sets every new connection to READ COMMITTED: locking reads
// and guarded updates see the latest committed row, and range scans take
// no gap locks. (The session variable has another name on MariaDB than on
// MySQL 8; the statement is the same on both.)
type readCommitted struct {
	sqldriver.Connector
	idleTx time.Duration
}

func (c readCommitted) Connect(ctx context.Context) (sqldriver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	ex, ok := conn.(sqldriver.ExecerContext)
	if !ok {
		conn.Close()
		return nil, errors.New("mysql: driver connection cannot exec")
	}
	if _, err := ex.ExecContext(ctx, "SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED", nil); err != nil {
		conn.Close()
		return nil, err
	}
	if c.idleTx > 0 {
		secs := int64(max(time.Second, c.idleTx.Round(time.Second)) / time.Second)
		_, err := ex.ExecContext(ctx, fmt.Sprintf("SET SESSION idle_transaction_timeout = %d", secs), nil)
		if err != nil && !isCode(err, 1193) { // 1193: no such variable (MySQL 8)
			conn.Close()
			return nil, err
		}
	}
	return conn, nil
}

// migrate applies the migrations under a named lock, so that instances
// starting together on one database migrate it once. It returns what it
// did.
func migrate(ctx context.Context, db *sql.DB, ms []sqlfile.Migration) (storetype.SchemaChange, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return storetype.SchemaChange{}, err
	}
	defer conn.Close()
	var got sql.NullInt64
	if err := conn.QueryRowContext(ctx, "SELECT GET_LOCK('lapse.migrate', 60)").Scan(&got); err != nil {
		return storetype.SchemaChange{}, fmt.Errorf("migrate lock: %w", err)
	}
	if got.Int64 != 1 {
		return storetype.SchemaChange{}, errors.New("migrate lock: timed out")
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), "DO RELEASE_LOCK('lapse.migrate')")
	return sqlfile.Migrate(ctx, db, dialect, ms)
}

// split cuts a migration into its statements: comment lines dropped, then
// split at each ';' (a migration holds none inside a string).
func split(migration string) []string {
	var b strings.Builder
	for _, line := range strings.Split(migration, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "--") {
			b.WriteString(line + "\n")
		}
	}
	var out []string
	for _, s := range strings.Split(b.String(), ";") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// Close closes the pools.
func (s *Driver) Close() error { return errors.Join(s.db.Close(), s.reads.Close(), s.engine.Close()) }

// Ready reports whether the database answers and every migration is
// applied.
func (s *Driver) Ready(ctx context.Context) error {
	if err := sqlfile.Check(ctx, s.db, s.migrations); err != nil {
		return fmt.Errorf("mysql: %w", err)
	}
	return nil
}

// Errors of the server the store acts on.
const (
	errDuplicate = 1062 // ER_DUP_ENTRY
	errDeadlock  = 1213 // ER_LOCK_DEADLOCK: the transaction was rolled back
)

// isCode reports whether err is a server error of the given number.
func isCode(err error, code uint16) bool {
	var me *mysql.MySQLError
	return errors.As(err, &me) && me.Number == code
}

// interpret turns driver errors into store errors.
func interpret(err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return storetype.ErrNotFound
	}
	return err
}

// nullTime stores a zero time as NULL.
func nullTime(t time.Time) sql.NullTime { return sql.NullTime{Time: t, Valid: !t.IsZero()} }

// utc returns a scanned nullable time, zero for NULL.
func utc(t sql.NullTime) time.Time {
	if !t.Valid {
		return time.Time{}
	}
	return t.Time.UTC()
}

func nullString(s string) sql.NullString { return sql.NullString{String: s, Valid: s != ""} }

// expand writes out the one list of q marked ", ...": the element before
// the mark, a ? or a parenthesised row, n times.
func expand(q string, n int) string {
	i := strings.Index(q, ", ...")
	if i < 0 || n < 1 {
		panic("mysql: no list to expand in " + q)
	}
	start := i - 1
	if q[start] == ')' {
		start = strings.LastIndex(q[:i], "(")
	}
	elem := q[start:i]
	return q[:start] + strings.Repeat(elem+", ", n-1) + elem + q[i+len(", ..."):]
}
