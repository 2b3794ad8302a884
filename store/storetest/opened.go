package storetest

import "testing"

// Opened returns d, which opening returned with err, to a test: it fails
// t on err, and closes d when t ends.
func Opened[D interface{ Close() error }](t testing.TB, d D, err error) D {
	t.Helper()
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
