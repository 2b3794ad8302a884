// Package mysqltest gives tests a database of their own on the MySQL or
// MariaDB server named by LAPSE_TEST_MYSQL.
package mysqltest

import (
	"database/sql"
	"fmt"
	"math/rand/v2"
	"net/url"
	"testing"

	"github.com/lapsehq/lapse/driver/internal/sqlfile/envtest"
	"github.com/lapsehq/lapse/driver/mysql"
)

// baseURL returns LAPSE_TEST_MYSQL, skipping t when it is unset.
func baseURL(t testing.TB) string {
	t.Helper()
	return envtest.URL(t, "LAPSE_TEST_MYSQL",
		"LAPSE_TEST_MYSQL is not set: skipping the MySQL tests (set it to e.g. mysql://root@127.0.0.1:3306/test)")
}

// newName returns a fresh database name.
func newName() string { return fmt.Sprintf("lapse_test_%016x", rand.Uint64()) }

// withDB returns the store URL base with its database set to name.
func withDB(t testing.TB, base, name string) string {
	t.Helper()
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("LAPSE_TEST_MYSQL: %v", err)
	}
	u.Path = "/" + name
	return u.String()
}

// NewDatabase names a database that does not exist yet on the server
// LAPSE_TEST_MYSQL names, for a test of something that creates its own
// (lapse bench). It returns the database's store URL and a function that
// reports which of the databases given exist, and drops them all, if they
// exist, when t ends. It skips t when the variable is unset.
func NewDatabase(t testing.TB) (dbURL, name string, existing func(names ...string) []string) {
	t.Helper()
	base := baseURL(t)
	admin := Raw(t, base)
	name = newName()
	existing = func(names ...string) []string {
		var out []string
		for _, n := range names {
			var found int
			if err := admin.QueryRow("SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = ?", n).Scan(&found); err != nil {
				t.Fatalf("information_schema.schemata: %v", err)
			}
			if found > 0 {
				out = append(out, n)
			}
		}
		return out
	}
	t.Cleanup(func() {
		for _, d := range existing(name, name+"_seed") {
			if _, err := admin.Exec("DROP DATABASE " + d); err != nil {
				t.Errorf("drop database %s: %v", d, err)
			}
		}
	})
	return withDB(t, base, name), name, existing
}

// FreshDB creates an empty database for t, dropped when t ends, and
// returns its store URL. It skips t unless LAPSE_TEST_MYSQL names a server
// (mysql://root@127.0.0.1:3306/test, say).
func FreshDB(t testing.TB) string {
	t.Helper()
	return FreshDBOn(t, baseURL(t))
}

// FreshDBOn creates an empty database for t on the server of the store
// URL base (a Galera cluster's, say), dropped when t ends, and returns
// its store URL.
func FreshDBOn(t testing.TB, base string) string {
	t.Helper()
	admin := Raw(t, base)
	name := newName()
	if _, err := admin.ExecContext(t.Context(), "CREATE DATABASE "+name); err != nil {
		t.Fatalf("create database %s: %v", name, err)
	}
	t.Cleanup(func() {
		if _, err := admin.Exec("DROP DATABASE " + name); err != nil {
			t.Errorf("drop database %s: %v", name, err)
		}
	})
	return withDB(t, base, name)
}

// Raw opens the database at a store URL directly, for what only SQL can
// see; closed when t ends.
func Raw(t testing.TB, storeURL string) *sql.DB {
	t.Helper()
	cfg, err := mysql.Config(storeURL)
	if err != nil {
		t.Fatalf("mysql.Config(%s): %v", storeURL, err)
	}
	db, err := sql.Open("mysql", cfg.FormatDSN())
	if err != nil {
		t.Fatalf("open %s: %v", storeURL, err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
