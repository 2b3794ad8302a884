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

	"github.com/lapsehq/lapse/driver/mysql"
	"github.com/lapsehq/lapse/storetype"
)

// TestClassifyOutage: what MySQL, MariaDB, Galera, a proxy or the network
// says while the server cannot take a transaction is
// storetype.ErrUnavailable, worth running again; a refusal of the
// transaction itself is not; storetype.IsUnavailable, which the reads,
// the loops and the API ask, agrees. (The real outage, a cut connection, is
// TestServeThroughOutage's in cli.)
func TestClassifyOutage(t *testing.T) {
	reset := &net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}
	for _, tc := range []struct {
		err         error
		unavailable bool
		retry       bool
	}{
		{&gomysql.MySQLError{Number: 1053}, true, true}, // ER_SERVER_SHUTDOWN
		{&gomysql.MySQLError{Number: 1047}, true, true}, // WSREP has not yet prepared node for application use
		{&gomysql.MySQLError{Number: 1290}, true, true}, // --read-only
		{&gomysql.MySQLError{Number: 2006}, true, true}, // CR_SERVER_GONE_ERROR
		{&gomysql.MySQLError{Number: 2013}, true, true}, // CR_SERVER_LOST
		{gomysql.ErrInvalidConn, true, true},
		{fmt.Errorf("begin: %w", sqldriver.ErrBadConn), true, true},
		{fmt.Errorf("query: %w", reset), true, true},
		{fmt.Errorf("commit: %w", io.EOF), true, true},
		{sql.ErrConnDone, true, true},
		{&gomysql.MySQLError{Number: 1213}, false, true},  // ER_LOCK_DEADLOCK
		{&gomysql.MySQLError{Number: 1062}, false, false}, // ER_DUP_ENTRY
		{errors.New("other"), false, false},
	} {
		out, retry := (*mysql.Driver)(nil).Classify(tc.err)
		if errors.Is(out, storetype.ErrUnavailable) != tc.unavailable || retry != tc.retry || !errors.Is(out, tc.err) {
			t.Errorf("Classify(%v): got %v, retry %v; want unavailable %v, retry %v, wrapping it", tc.err, out, retry, tc.unavailable, tc.retry)
		}
		if storetype.IsUnavailable(tc.err) != tc.unavailable {
			t.Errorf("storetype.IsUnavailable(%v) = %v: a read, the loops and the API must see what Classify sees", tc.err, !tc.unavailable)
		}
	}
}
