package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/drivertest"
	"github.com/lapsehq/lapse/driver/postgres"
	"github.com/lapsehq/lapse/driver/postgres/pgtest"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/store/storetest"
)

var t0 = time.Date(2026, 11, 11, 0, 0, 0, 0, time.UTC)

// openDriver opens a driver on url, closed when t ends.
func openDriver(t testing.TB, url string, opts postgres.Options) *postgres.Driver {
	t.Helper()
	d, err := postgres.Open(context.Background(), url, opts)
	return storetest.Opened(t, d, err)
}

// open opens the store over a driver on url, closed when t ends.
func open(t testing.TB, url string, opts postgres.Options) *store.DB {
	return store.New(openDriver(t, url, opts), store.Options{})
}

func TestStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T) driver.Driver {
		return openDriver(t, pgtest.SchemaURL(t), postgres.Options{})
	})
}

// TestDriver runs the driver contract's own tests.
func TestDriver(t *testing.T) {
	drivertest.Run(t, func(t *testing.T) driver.Driver { return openDriver(t, pgtest.SchemaURL(t), postgres.Options{}) })
}

// TestSkipLocked: a drain skips the due reminders another holds.
func TestSkipLocked(t *testing.T) {
	storetest.RunSkipLocked(t, func(t *testing.T) driver.Driver { return openDriver(t, pgtest.SchemaURL(t), postgres.Options{}) })
}

// TestReadsBesideEngine: users read while the engine pool is held.
func TestReadsBesideEngine(t *testing.T) {
	storetest.RunReadsBesideEngine(t, func(t *testing.T) driver.Driver { return openDriver(t, pgtest.SchemaURL(t), postgres.Options{}) })
}

// TestWritesBesideEngine: users write while the engine pool is held.
func TestWritesBesideEngine(t *testing.T) {
	storetest.RunWritesBesideEngine(t, func(t *testing.T) driver.Driver { return openDriver(t, pgtest.SchemaURL(t), postgres.Options{}) })
}

// TestReadsBesideWrites: users read while the request pool is held.
func TestReadsBesideWrites(t *testing.T) {
	storetest.RunReadsBesideWrites(t, func(t *testing.T) driver.Driver { return openDriver(t, pgtest.SchemaURL(t), postgres.Options{}) })
}
