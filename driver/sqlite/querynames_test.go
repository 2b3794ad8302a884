package sqlite_test

import (
	"testing"

	"github.com/lapsehq/lapse/driver/sqlite"
	"github.com/lapsehq/lapse/store/storetest"
)

// TestQueryNames: every query the driver names exists, and every query is
// named: a typo fails here, not in production.
func TestQueryNames(t *testing.T) { storetest.CheckQueryNames(t, sqlite.QueryNames()) }
