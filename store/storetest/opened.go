package storetest

import (
	"context"
	"testing"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/store"
)

// OpenFunc is a backend's Open: it opens a driver on where, a URL or a
// file's path, with the backend's options O. Its methods open one for a
// test.
type OpenFunc[D driver.Driver, O any] func(ctx context.Context, where string, opts O) (D, error)

// Driver opens a driver on where with opts: it fails t if that fails, and
// closes the driver when t ends.
func (open OpenFunc[D, O]) Driver(t testing.TB, where string, opts O) D {
	t.Helper()
	d, err := open(t.Context(), where, opts)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() {
		if err := d.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	return d
}

// Store opens the store, with default options, over a driver Driver opens.
func (open OpenFunc[D, O]) Store(t testing.TB, where string, opts O) *store.DB {
	t.Helper()
	return store.New(open.Driver(t, where, opts), store.Options{})
}
