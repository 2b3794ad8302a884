package main

import (
	"testing"
	"time"

	"github.com/lapsehq/lapse/driver/postgres/pgtest"
)

// TestInstanceKilledMidStormThroughPgBouncer: TestInstanceKilledMidStorm,
// a smaller storm, with the three instances reaching PostgreSQL through
// PgBouncer in transaction pooling, by the URL a direct connection takes
// but for its port: they start together (migrating one at a time), share
// the storm by their leases, and one of them is killed with SIGKILL as it
// drains, its server connections going back to PgBouncer's pool
// mid-transaction; every coupon is expired exactly once, none early.
func TestInstanceKilledMidStormThroughPgBouncer(t *testing.T) {
	killOneMidStorm(t, pgtest.BouncerURL(t), 20_000, 15*time.Second)
}
