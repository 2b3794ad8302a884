package postgres_test

import (
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/lapsehq/lapse/driver/postgres"
	"github.com/lapsehq/lapse/storetype"
)

// TestClassifyOutage: what PostgreSQL or the network says while no
// primary answers is storetype.ErrUnavailable, worth running again;
// a refusal of the transaction itself is not. (The real outage, a cut
// connection, is TestServeThroughOutage's in cli.)
func TestClassifyOutage(t *testing.T) {
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
	for _, tc := range []struct {
		err         error
		unavailable bool
		retry       bool
	}{
		{&pgconn.PgError{Code: "57P01"}, true, true}, // admin_shutdown
		{&pgconn.PgError{Code: "57P02"}, true, true}, // crash_shutdown
		{&pgconn.PgError{Code: "57P03"}, true, true}, // cannot_connect_now
		{&pgconn.PgError{Code: "08006"}, true, true}, // connection_failure
		{&pgconn.PgError{Code: "25006"}, true, true}, // read_only_sql_transaction: a standby
		{fmt.Errorf("begin: %w", refused), true, true},
		{fmt.Errorf("commit: %w", io.ErrUnexpectedEOF), true, true},
		{fmt.Errorf("query: %w", pgconn.ErrConnClosed), true, true},
		{&pgconn.PgError{Code: "40P01"}, false, true},  // deadlock_detected
		{&pgconn.PgError{Code: "57P04"}, false, false}, // database_dropped
		{&pgconn.PgError{Code: "23505"}, false, false}, // unique_violation
		{errors.New("other"), false, false},
	} {
		out, retry := (*postgres.Driver)(nil).Classify(tc.err)
		if errors.Is(out, storetype.ErrUnavailable) != tc.unavailable || retry != tc.retry || !errors.Is(out, tc.err) {
			t.Errorf("Classify(%v): got %v, retry %v; want unavailable %v, retry %v, wrapping it", tc.err, out, retry, tc.unavailable, tc.retry)
		}
	}
}
