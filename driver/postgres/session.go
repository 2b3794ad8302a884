package postgres

import (
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Lapse relies on no session state across transactions, so that one URL
// works directly and through PgBouncer, in session or in transaction
// pooling (where each transaction, and each statement outside one, may
// run on another server connection, which other clients share):
//
//   - it sends no startup parameter of its own (PgBouncer refuses all but
//     a few, such as application_name);
//   - the idle-transaction timeout is set by each write transaction for
//     itself (beginQuery), not for the session;
//   - statements are not prepared under a name (execMode);
//   - the migration lock is a transaction's (lockMigrations);
//   - leases, the feed's sequencer and every other lock between
//     instances are rows, or row locks held to a transaction's end;
//     nothing uses LISTEN, temporary tables or session advisory locks.
//
// What the client sets on a connection (the timestamptz codec of
// AfterConnect) is the client's alone, and survives any pooler.

// execMode is how lapse runs statements unless the URL sets
// default_query_exec_mode: pgx's QueryExecModeCacheDescribe, which
// describes a statement once per connection and then runs it in one round
// trip as the unnamed statement (Parse, Bind, Execute, Sync together). Its
// default, QueryExecModeCacheStatement, prepares statements under names
// (stmtcache_…) that live in the server's session: through PgBouncer in
// transaction pooling a name prepared on one server connection is missing
// on the next, or already taken there by another client.
// QueryExecModeDescribeExec would describe and run in two round trips,
// between which the pooler may switch server connections.
const execMode = pgx.QueryExecModeCacheDescribe

// beginQuery is the statement that begins a write transaction: BEGIN, and,
// if idle is set, SET LOCAL idle_in_transaction_session_timeout, in one
// simple query that costs no round trip more. SET LOCAL lasts exactly as
// long as the transaction, on the server connection that runs it, where a
// startup parameter is refused by PgBouncer and a session's SET would, in
// transaction pooling, land on whichever server connection ran it and
// stay there for other clients. An empty query has pgx send its BEGIN.
func beginQuery(idle time.Duration) string {
	if idle <= 0 {
		return ""
	}
	return fmt.Sprintf("BEGIN; SET LOCAL idle_in_transaction_session_timeout = %d", idle.Milliseconds())
}
