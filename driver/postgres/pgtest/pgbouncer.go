package pgtest

import (
	"context"
	"net/url"
	"testing"

	"github.com/lapsehq/lapse/driver/internal/sqlfile/envtest"
)

// BouncerURL creates a fresh database on the server LAPSE_TEST_POSTGRES
// names, dropped when t ends, and returns its URL through the PgBouncer
// LAPSE_TEST_PGBOUNCER names: one in front of that server, in transaction
// pooling, whose wildcard database (* = host=… port=…) reaches any
// database there. A database rather than a schema, as PgBouncer refuses
// search_path as a startup parameter. It skips t when either variable is
// unset.
func BouncerURL(t testing.TB) string {
	t.Helper()
	bouncer := envtest.URL(t, "LAPSE_TEST_PGBOUNCER", "LAPSE_TEST_PGBOUNCER is unset: set it to the URL of a PgBouncer "+
		"in transaction pooling in front of LAPSE_TEST_POSTGRES's server, with a wildcard database "+
		"(postgres://postgres@127.0.0.1:6432/test?sslmode=disable; .ci/services.sh starts one) to run the PgBouncer tests")
	_, name, _ := NewDatabase(t)
	if _, err := Connect(t, baseURL(t)).Exec(context.Background(), "CREATE DATABASE "+name); err != nil {
		t.Fatalf("create database: %v", err)
	}
	u, err := url.Parse(bouncer)
	if err != nil {
		t.Fatalf("LAPSE_TEST_PGBOUNCER: %v", err)
	}
	u.Path = "/" + name
	return u.String()
}
