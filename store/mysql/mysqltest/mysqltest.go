// Package mysqltest gives tests a database of their own on the MySQL or
// MariaDB server named by LAPSE_TEST_MYSQL.
package mysqltest

import (
	"database/sql"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"testing"

	"github.com/lapsehq/lapse/store/mysql"
)

// FreshDB creates an empty database for t, dropped when t ends, and
// returns its store URL. It skips t unless LAPSE_TEST_MYSQL names a server
// (mysql://root@127.0.0.1:3306/test, say).
func FreshDB(t testing.TB) string {
	t.Helper()
	base := os.Getenv("LAPSE_TEST_MYSQL")
	if base == "" {
		t.Skip("LAPSE_TEST_MYSQL is not set: skipping the MySQL tests (set it to e.g. mysql://root@127.0.0.1:3306/test)")
	}
	admin := Raw(t, base)
	name := fmt.Sprintf("lapse_test_%016x", rand.Uint64())
	if _, err := admin.ExecContext(t.Context(), "CREATE DATABASE "+name); err != nil {
		t.Fatalf("create database %s: %v", name, err)
	}
	t.Cleanup(func() {
		if _, err := admin.Exec("DROP DATABASE " + name); err != nil {
			t.Errorf("drop database %s: %v", name, err)
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("LAPSE_TEST_MYSQL: %v", err)
	}
	u.Path = "/" + name
	return u.String()
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
