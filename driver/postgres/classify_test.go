package postgres_test

import (
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/lapsehq/lapse/driver/drivertest"
	"github.com/lapsehq/lapse/driver/postgres"
)

// TestClassifyOutage: what PostgreSQL or the network says while no
// primary answers is storetype.ErrUnavailable, worth running again;
// a refusal of the transaction itself is not. (The real outage, a cut
// connection, is TestServeThroughOutage's in cli.)
func TestClassifyOutage(t *testing.T) {
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
	drivertest.ClassifyOutages(t, (*postgres.Driver)(nil).Classify, drivertest.Outages{
		Unavailable: []error{
			&pgconn.PgError{Code: "57P01"}, // admin_shutdown
			&pgconn.PgError{Code: "57P02"}, // crash_shutdown
			&pgconn.PgError{Code: "57P03"}, // cannot_connect_now
			&pgconn.PgError{Code: "08006"}, // connection_failure
			&pgconn.PgError{Code: "25006"}, // read_only_sql_transaction: a standby
			fmt.Errorf("begin: %w", refused),
			fmt.Errorf("commit: %w", io.ErrUnexpectedEOF),
			fmt.Errorf("query: %w", pgconn.ErrConnClosed),
		},
		Retry: []error{
			&pgconn.PgError{Code: "40P01"}, // deadlock_detected
		},
		Final: []error{
			&pgconn.PgError{Code: "57P04"}, // database_dropped
			&pgconn.PgError{Code: "23505"}, // unique_violation
			errors.New("other"),
		},
	})
}
