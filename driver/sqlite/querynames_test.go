package sqlite_test

import (
	"testing"

	"github.com/lapsehq/lapse/driver/internal/sqlfile/querytest"
	"github.com/lapsehq/lapse/driver/sqlite"
)

// TestQueryNames: every query the driver names exists, and every query is
// named, by the driver or by sqlfile (sqlfile.SharedQueries): a typo
// fails here, not in production.
func TestQueryNames(t *testing.T) { querytest.CheckNames(t, sqlite.QueryNames()) }
