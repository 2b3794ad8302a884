package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/drivertest"
	"github.com/lapsehq/lapse/driver/postgres"
	"github.com/lapsehq/lapse/driver/postgres/pgtest"
)

// The tests here run lapse through PgBouncer in transaction pooling
// (LAPSE_TEST_PGBOUNCER), where each transaction, and each statement
// outside one, may run on another server connection.

// TestDriverThroughPgBouncer runs the driver contract's own tests through
// PgBouncer, with the idle-transaction timeout lapse serve sets.
func TestDriverThroughPgBouncer(t *testing.T) {
	drivertest.Run(t, func(t *testing.T) driver.Driver {
		return openDriver(t, pgtest.BouncerURL(t), postgres.Options{IdleTxTimeout: time.Minute})
	})
}

// TestOpenTogetherThroughPgBouncer: TestOpenTogether through PgBouncer,
// where a session's advisory lock would stay on a server connection.
func TestOpenTogetherThroughPgBouncer(t *testing.T) { openTogether(t, pgtest.BouncerURL(t)) }

// TestPoolerDetected: Open finds PgBouncer in front of PostgreSQL, and
// nothing in front of a direct connection, from the same URL but for its
// port.
func TestPoolerDetected(t *testing.T) {
	for _, via := range []struct {
		name   string
		url    func(testing.TB) string
		pooled bool
	}{{"direct", pgtest.SchemaURL, false}, {"pgbouncer", pgtest.BouncerURL, true}} {
		t.Run(via.name, func(t *testing.T) {
			d := openDriver(t, via.url(t), postgres.Options{IdleTxTimeout: time.Minute})
			if d.Pooled() != via.pooled {
				t.Fatalf("Pooled: got %v, want %v", d.Pooled(), via.pooled)
			}
		})
	}
}

// TestIdleTxTimeout: a write transaction left idle past IdleTxTimeout is
// ended by the server, directly (a startup parameter) and through
// PgBouncer (the transaction's SET LOCAL), and the driver goes on
// serving; through PgBouncer the setting stays with the transaction: the
// server connection it ran on keeps the server's default for the next
// client.
func TestIdleTxTimeout(t *testing.T) {
	for _, via := range []struct {
		name string
		url  func(testing.TB) string
	}{{"direct", pgtest.SchemaURL}, {"pgbouncer", pgtest.BouncerURL}} {
		t.Run(via.name, func(t *testing.T) {
			ctx := t.Context()
			u := via.url(t)
			d := openDriver(t, u, postgres.Options{IdleTxTimeout: 200 * time.Millisecond, MaxConns: 1})
			tx, err := d.Begin(ctx, false)
			if err != nil {
				t.Fatalf("Begin: %v", err)
			}
			if _, err := tx.Clock(ctx); err != nil {
				t.Fatalf("Clock in the transaction: %v", err)
			}
			time.Sleep(time.Second)
			if _, err := tx.Clock(ctx); err == nil {
				t.Fatalf("Clock in a transaction idle for 1s, past its 200ms timeout: no error")
			}
			tx.Rollback()

			tx, err = d.Begin(ctx, false)
			if err != nil {
				t.Fatalf("Begin after the timeout: %v", err)
			}
			if _, err := tx.Clock(ctx); err != nil {
				t.Fatalf("Clock in a transaction after the timeout: %v", err)
			}
			tx.Rollback()
			// PgBouncer hands out the server connection used last (its
			// server_round_robin is off): the transaction's.
			conn := pgtest.Connect(t, u)
			var setting string
			if err := conn.QueryRow(context.Background(), "SHOW idle_in_transaction_session_timeout").Scan(&setting); err != nil {
				t.Fatalf("SHOW: %v", err)
			}
			if setting != "0" {
				t.Fatalf("a session's idle_in_transaction_session_timeout: got %s, want the server's 0", setting)
			}
		})
	}
}
