package sqlite_test

import (
	"testing"

	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/sqlite"
	"github.com/lapsehq/lapse/store/storetest"
)

// TestQueryNames: every query the driver names exists, and every query is
// named, by the driver or, for sqlfile.CommonQueries, by sqlfile.Common:
// a typo fails here, not in production.
func TestQueryNames(t *testing.T) {
	own, missing := sqlfile.OwnQueries(sqlite.QueryNames())
	if len(missing) > 0 {
		t.Errorf("no queries %v, which sqlfile.Common runs", missing)
	}
	storetest.CheckQueryNames(t, own)
}
