// Package envtest gives the tests of the drivers on a database server
// (PostgreSQL, MySQL) the server the environment names.
package envtest

import (
	"os"
	"testing"
)

// URL returns the environment variable name, the URL of a test server,
// skipping t with the message unset when it is unset.
func URL(t testing.TB, name, unset string) string {
	t.Helper()
	url := os.Getenv(name)
	if url == "" {
		t.Skip(unset)
	}
	return url
}
