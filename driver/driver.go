package driver

import (
	"context"

	"github.com/lapsehq/lapse/storetype"
)

// Driver is one database as the service (store.DB) sees it: write
// transactions, an executor for reads outside one, and how its errors
// read. A backend package (driver/sqlite, driver/postgres, driver/mysql)
// implements it with its SQL, migrations and connection setup, and no
// business rule: the service decides every state change, count, stock
// move, reminder and idempotent replay once, over any Driver.
type Driver interface {
	// Begin starts one write transaction. background marks a drain or
	// issuance batch, which a backend with one writer holds back while a
	// user's write waits.
	Begin(ctx context.Context, background bool) (ExecutorTx, error)
	// Executor runs statements outside a transaction, on the driver's
	// read pool (the reads only the engine makes, Timers, Stats and
	// OrdersDue, on its engine pool where it keeps one: see
	// sqlfile.ReadConns): reads only, each in a snapshot of its own,
	// holding no row. A write through it fails.
	Executor() Executor
	// Classify turns an error of a write transaction, or of a read of
	// the Executor, into what the service returns (storetype.ErrNotFound,
	// ErrRequestTaken and domain errors as they are, the backend's outage
	// codes as storetype.ErrUnavailable), and says whether the
	// transaction is worth running again: the database rolled it back to
	// break a deadlock, say.
	Classify(err error) (out error, retry bool)
	// Busy reports whether a user's write waits for the writer; an
	// issuance batch or a bulk operation's batch then commits early. A
	// backend whose writers do not queue on one another answers false.
	Busy() bool
	// Ready reports whether the database answers and is migrated.
	Ready(ctx context.Context) error
	// Close releases the connections.
	Close() error
}

// ExecutorTx is one write transaction of a Driver: the Executor's
// statements run in it, and a read of a coupon, an order, a SKU's buckets
// or an operation holds that row until the transaction ends, where the
// backend has row locks, so that what a rule decides on cannot change
// under it.
type ExecutorTx interface {
	Executor
	// Commit writes what the driver buffered and records, the
	// transaction's outbox records in order, and commits; it returns the
	// group timers the transaction wrote, for the hooks.
	Commit(ctx context.Context, records []storetype.Record) ([]storetype.Timer, error)
	// Rollback ends the transaction unless it committed.
	Rollback()
}
