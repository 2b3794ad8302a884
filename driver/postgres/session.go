package postgres

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Lapse relies on no session state across transactions, so that one URL
// works directly and through PgBouncer, in session or in transaction
// pooling (where each transaction, and each statement outside one, may
// run on another server connection, which other clients share):
//
//   - it sends no startup parameter of its own (PgBouncer refuses all but
//     a few, such as application_name);
//   - behind a pooler (behindPooler), the idle-transaction timeout is set
//     by each write transaction for itself (beginQuery), not for the
//     session, and statements are not prepared under a name
//     (pooledExecMode); on a direct connection, where the session is
//     lapse's own, the timeout is a startup parameter and statements are
//     prepared once, pgx's default, which is faster;
//   - the migration lock is a transaction's (lockMigrations);
//   - leases, the feed's sequencer and every other lock between
//     instances are rows, or row locks held to a transaction's end;
//     nothing uses LISTEN, temporary tables or session advisory locks.
//
// What the client sets on a connection (the timestamptz codec of
// AfterConnect) is the client's alone, and survives any pooler.

// pooledExecMode is how lapse runs statements behind a pooler, unless
// the URL sets default_query_exec_mode: pgx's QueryExecModeCacheDescribe,
// which describes a statement once per connection and then runs it in one
// round trip as the unnamed statement (Parse, Bind, Execute, Sync
// together). pgx's default, QueryExecModeCacheStatement, which lapse keeps
// on a direct connection (it plans each statement once: PostgreSQL's
// hot-SKU orders ran 5–15% faster with it, docs/production.md), prepares
// statements under names (stmtcache_…) that live in the server's session:
// through PgBouncer in transaction pooling a name prepared on one server
// connection is missing on the next, or already taken there by another
// client. QueryExecModeDescribeExec would describe and run in two round
// trips, between which the pooler may switch server connections.
const pooledExecMode = pgx.QueryExecModeCacheDescribe

// idleParam is PostgreSQL's idle-transaction timeout (Options.IdleTxTimeout).
const idleParam = "idle_in_transaction_session_timeout"

// behindPooler reports whether a pooler stands between lapse and
// PostgreSQL, by connecting once with the startup parameter idleParam
// (idle, in milliseconds): PostgreSQL takes it, PgBouncer refuses it
// (08P01, protocol_violation: "unsupported startup parameter"), as it
// refuses every startup parameter but a few it tracks. A pooler told to ignore the parameter
// (ignore_startup_parameters) passes for PostgreSQL: docs/production.md
// says to set default_query_exec_mode then.
func behindPooler(ctx context.Context, cfg *pgconn.Config, idle time.Duration) (bool, error) {
	probe := cfg.Copy()
	probe.RuntimeParams = maps.Clone(cfg.RuntimeParams)
	probe.RuntimeParams[idleParam] = strconv.FormatInt(idle.Milliseconds(), 10)
	conn, err := pgconn.ConnectConfig(ctx, probe)
	if err == nil {
		return false, conn.Close(ctx)
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "08P01" && strings.Contains(pgErr.Message, "unsupported startup parameter") {
		return true, nil
	}
	return false, err
}

// beginQuery is the statement that begins a write transaction behind a
// pooler: BEGIN, and, if idle is set, SET LOCAL
// idle_in_transaction_session_timeout, in one simple query that costs no
// round trip more. SET LOCAL lasts exactly as long as the transaction, on
// the server connection that runs it, where a startup parameter is
// refused by PgBouncer and a session's SET would, in transaction pooling,
// land on whichever server connection ran it and stay there for other
// clients. An empty query has pgx send its BEGIN.
func beginQuery(idle time.Duration) string {
	if idle <= 0 {
		return ""
	}
	return fmt.Sprintf("BEGIN; SET LOCAL %s = %d", idleParam, idle.Milliseconds())
}
