package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/storetype"
)

// migrateLock is the advisory lock key under which instances starting
// together migrate one at a time. Lapses before the transaction lock held
// it as a session's: the two kinds conflict, so an old and a new instance
// starting together still take turns.
const migrateLock = 0x6c61707365 // "lapse"

// migratePoll is how long an instance waits between tries of the
// migration lock.
const migratePoll = 100 * time.Millisecond

// migrate applies the embedded migrations under the migration lock, so
// that instances starting together do not race to create tables. It
// returns what it did.
func (s *Driver) migrate(ctx context.Context) (storetype.SchemaChange, error) {
	ms, err := sqlfile.LoadMigrations(files, "migrations")
	if err != nil {
		return storetype.SchemaChange{}, err
	}
	s.migrations = ms
	unlock, err := s.lockMigrations(ctx)
	if err != nil {
		return storetype.SchemaChange{}, err
	}
	defer unlock()
	return sqlfile.Migrate(ctx, s.db, dialect, ms)
}

// lockMigrations takes the migration lock and returns the function that
// releases it. The lock is a transaction's (pg_advisory_xact_lock), held
// by a transaction of the engine pool that does nothing else and stays
// open while the migrations run in transactions of their own on the
// request pool. A session's lock would, through PgBouncer in transaction
// pooling, stay on whichever server connection took it, for other
// clients, and the unlock would run on another; a transaction keeps its
// server connection to its end, and its end, or the loss of its
// connection, releases the lock. Its idle timeout is off, as it sits
// idle while the migrations run.
//
// Waiting, it tries the lock and ends its transaction between tries, so
// that instances waiting hold no server connection: through a pooler of
// two server connections, the instance migrating has its second.
func (s *Driver) lockMigrations(ctx context.Context) (unlock func(), err error) {
	for {
		tx, err := s.engine.BeginTx(ctx, pgx.TxOptions{BeginQuery: "BEGIN; SET LOCAL idle_in_transaction_session_timeout = 0"})
		if err != nil {
			return nil, fmt.Errorf("migrate lock: %w", err)
		}
		var locked bool
		err = tx.QueryRow(ctx, "SELECT pg_try_advisory_xact_lock($1)", migrateLock).Scan(&locked)
		if locked && err == nil {
			return func() { tx.Rollback(context.WithoutCancel(ctx)) }, nil
		}
		tx.Rollback(context.WithoutCancel(ctx))
		if err != nil {
			return nil, fmt.Errorf("migrate lock: %w", err)
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("migrate lock: %w", ctx.Err())
		case <-time.After(migratePoll):
		}
	}
}
