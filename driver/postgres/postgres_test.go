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

func TestStore(t *testing.T) { storetest.Run(t, newDriver) }

// TestDriver runs the driver contract's own tests.
func TestDriver(t *testing.T) { drivertest.Run(t, newDriver) }

// TestServer runs the store's checks of a backend whose writers run side
// by side.
func TestServer(t *testing.T) { storetest.RunServer(t, newDriver) }
