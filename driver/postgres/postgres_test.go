package postgres_test

import (
	"testing"
	"time"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/drivertest"
	"github.com/lapsehq/lapse/driver/postgres"
	"github.com/lapsehq/lapse/driver/postgres/pgtest"
	"github.com/lapsehq/lapse/store/storetest"
)

var t0 = time.Date(2026, 11, 11, 0, 0, 0, 0, time.UTC)

// openDriver opens a driver on a schema's URL, and open the store over
// one; each is closed when t ends.
var (
	openDriver = storetest.OpenFunc[*postgres.Driver, postgres.Options](postgres.Open).Driver
	open       = storetest.OpenFunc[*postgres.Driver, postgres.Options](postgres.Open).Store
)

// newDriver opens a driver on a fresh schema, closed when t ends.
func newDriver(t *testing.T) driver.Driver {
	return openDriver(t, pgtest.SchemaURL(t), postgres.Options{})
}

func TestStore(t *testing.T) {
	storetest.Run(t, newDriver)
}

// TestDriver runs the driver contract's own tests.
func TestDriver(t *testing.T) {
	drivertest.Run(t, newDriver)
}

// TestSkipLocked: a drain skips the due reminders another holds.
func TestSkipLocked(t *testing.T) {
	storetest.RunSkipLocked(t, newDriver)
}

// TestReadsBesideEngine: users read while the engine pool is held.
func TestReadsBesideEngine(t *testing.T) {
	storetest.RunReadsBesideEngine(t, newDriver)
}

// TestWritesBesideEngine: users write while the engine pool is held.
func TestWritesBesideEngine(t *testing.T) {
	storetest.RunWritesBesideEngine(t, newDriver)
}

// TestReadsBesideWrites: users read while the request pool is held.
func TestReadsBesideWrites(t *testing.T) {
	storetest.RunReadsBesideWrites(t, newDriver)
}
