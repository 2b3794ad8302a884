// Package pgtest gives each test that uses PostgreSQL a database of its
// own on the server LAPSE_TEST_POSTGRES names: a fresh schema, or a fresh
// database for what creates its own.
package pgtest

import (
	"context"
	"crypto/rand"
	"net/url"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/lapsehq/lapse/driver/internal/sqlfile/envtest"
)

// baseURL returns LAPSE_TEST_POSTGRES, skipping t when it is unset.
func baseURL(t testing.TB) string {
	t.Helper()
	return envtest.URL(t, "LAPSE_TEST_POSTGRES", "LAPSE_TEST_POSTGRES is unset: set it to a PostgreSQL URL "+
		"(postgres://postgres@127.0.0.1:5432/test?sslmode=disable) to run the PostgreSQL tests")
}

// newName returns a fresh name with prefix, lower case as PostgreSQL folds
// identifiers.
func newName(prefix string) string { return prefix + strings.ToLower(rand.Text()[:16]) }

// NewDatabase names a database that does not exist yet on the server
// LAPSE_TEST_POSTGRES names, for a test of something that creates its own
// (lapse bench). It returns the database's URL and a function that
// reports which of the databases given exist, and drops them all, if they
// exist, when t ends. It skips t when the variable is unset.
func NewDatabase(t testing.TB) (dbURL, name string, existing func(names ...string) []string) {
	t.Helper()
	base := baseURL(t)
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("LAPSE_TEST_POSTGRES: %v", err)
	}
	name = newName("lapse_test_")
	admin := Connect(t, base)
	existing = func(names ...string) []string {
		var out []string
		err := admin.QueryRow(context.Background(), "SELECT coalesce(array_agg(datname), '{}') FROM pg_database WHERE datname = ANY($1)", names).Scan(&out)
		if err != nil {
			t.Fatalf("pg_database: %v", err)
		}
		return out
	}
	t.Cleanup(func() {
		for _, d := range existing(name, name+"_seed") {
			if _, err := admin.Exec(context.Background(), "DROP DATABASE "+d+" WITH (FORCE)"); err != nil {
				t.Errorf("drop database %s: %v", d, err)
			}
		}
	})
	u.Path = "/" + name
	return u.String(), name, existing
}

// SchemaURL creates a fresh schema on LAPSE_TEST_POSTGRES, dropped when t
// ends, and returns the URL of the database with search_path set to it
// and the schema's name as application_name, so that a test can find its
// own sessions in pg_stat_activity. It skips t when the variable is unset.
func SchemaURL(t testing.TB) string {
	t.Helper()
	base := baseURL(t)
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("LAPSE_TEST_POSTGRES: %v", err)
	}
	schema := newName("lapse_test_")
	admin := Connect(t, base)
	if _, err := admin.Exec(context.Background(), "CREATE SCHEMA "+schema); err != nil {
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		if _, err := admin.Exec(context.Background(), "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
	})
	q := u.Query()
	q.Set("search_path", schema)
	q.Set("application_name", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// Connect opens one plain connection to url, closed when t ends.
func Connect(t testing.TB, url string) *pgx.Conn {
	t.Helper()
	c, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}
