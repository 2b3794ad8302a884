// Package pgtest gives each test that uses PostgreSQL a database of its
// own: a fresh schema on the server LAPSE_TEST_POSTGRES names.
package pgtest

import (
	"context"
	"crypto/rand"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// SchemaURL creates a fresh schema on LAPSE_TEST_POSTGRES, dropped when t
// ends, and returns the URL of the database with search_path set to it
// and the schema's name as application_name, so that a test can find its
// own sessions in pg_stat_activity. It skips t when the variable is unset.
func SchemaURL(t testing.TB) string {
	t.Helper()
	base := os.Getenv("LAPSE_TEST_POSTGRES")
	if base == "" {
		t.Skip("LAPSE_TEST_POSTGRES is unset: set it to a PostgreSQL URL " +
			"(postgres://postgres@127.0.0.1:5432/test?sslmode=disable) to run the PostgreSQL tests")
	}
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("LAPSE_TEST_POSTGRES: %v", err)
	}
	schema := "lapse_test_" + strings.ToLower(rand.Text()[:16])
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
