package mysql_test

import (
	"database/sql"
	sqldriver "database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
	"testing"

	gomysql "github.com/go-sql-driver/mysql"

	"github.com/lapsehq/lapse/driver/drivertest"
	"github.com/lapsehq/lapse/driver/mysql"
)

// TestClassifyOutage: what MySQL, MariaDB, Galera, a proxy or the network
// says while the server cannot take a transaction is
// storetype.ErrUnavailable, worth running again; a refusal of the
// transaction itself is not. (The real outages are TestServeThroughOutage's
// in cli, TestReadsTerminated's in store and TestGaleraFailover's.)
func TestClassifyOutage(t *testing.T) {
	reset := &net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}
	outages := drivertest.Outages{
		Unavailable: []error{
			&gomysql.MySQLError{Number: 1053}, // ER_SERVER_SHUTDOWN
			&gomysql.MySQLError{Number: 1047}, // WSREP has not yet prepared node for application use
			&gomysql.MySQLError{Number: 1290}, // --read-only
			&gomysql.MySQLError{Number: 2006}, // CR_SERVER_GONE_ERROR
			&gomysql.MySQLError{Number: 2013}, // CR_SERVER_LOST
			gomysql.ErrInvalidConn,
			fmt.Errorf("begin: %w", sqldriver.ErrBadConn),
			fmt.Errorf("query: %w", reset),
			fmt.Errorf("commit: %w", io.EOF),
			sql.ErrConnDone,
		},
		Retry: []error{
			&gomysql.MySQLError{Number: 1213}, // ER_LOCK_DEADLOCK
		},
		Final: []error{
			&gomysql.MySQLError{Number: 1062}, // ER_DUP_ENTRY
			errors.New("other"),
		},
	}
	drivertest.ClassifyOutages(t, (*mysql.Driver)(nil).Classify, outages)
}
