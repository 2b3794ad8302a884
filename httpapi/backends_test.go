package httpapi

import (
	"testing"

	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/store/backendtest"
)

// backend is one store the API runs over, opened fresh for a test.
type backend struct {
	name string
	open func(t *testing.T) store.Store
}

// backends returns SQLite, PostgreSQL and MySQL/MariaDB (see
// backendtest.All), skipping t unless all three are configured.
func backends(t *testing.T) []backend {
	t.Helper()
	var out []backend
	for _, be := range backendtest.All(t) {
		out = append(out, backend{be.Name, be.Open})
	}
	return out
}

// onEveryStore runs test once per backend, as a subtest of its name,
// against a server over a fresh store of that backend.
func onEveryStore(t *testing.T, test func(t *testing.T, e *env)) {
	t.Helper()
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) { test(t, serveStore(t, b.open(t))) })
	}
}
