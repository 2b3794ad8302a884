// Package backendtest opens a fresh store on each backend, SQLite,
// PostgreSQL (directly and, where a PgBouncer is given, through it) and
// MySQL/MariaDB, for the tests of what runs above the store (the HTTP
// API, its client).
package backendtest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lapsehq/lapse/driver/mysql"
	"github.com/lapsehq/lapse/driver/mysql/mysqltest"
	"github.com/lapsehq/lapse/driver/postgres"
	"github.com/lapsehq/lapse/driver/postgres/pgtest"
	"github.com/lapsehq/lapse/driver/sqlite"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/store/storetest"
)

// Backend is one store, opened fresh for a test.
type Backend struct {
	Name string
	// Open opens a store of its own (a file, a schema, a database),
	// closed when t ends.
	Open func(t *testing.T) store.Store
}

// The backends' Open, each to open a store for a test.
var (
	openSQLite   = storetest.OpenFunc[*sqlite.Driver, sqlite.Options](sqlite.Open)
	openPostgres = storetest.OpenFunc[*postgres.Driver, postgres.Options](postgres.Open)
	openMySQL    = storetest.OpenFunc[*mysql.Driver, mysql.Options](mysql.Open)
)

// All returns SQLite, PostgreSQL and MySQL/MariaDB, and, when
// LAPSE_TEST_PGBOUNCER is set (CI sets it), PostgreSQL through that
// PgBouncer in transaction pooling, as production most often reaches it.
// It skips t unless LAPSE_TEST_POSTGRES and LAPSE_TEST_MYSQL are set: a
// test that takes them runs on all three.
func All(t *testing.T) []Backend {
	t.Helper()
	NeedServers(t, "runs on SQLite, PostgreSQL and MySQL/MariaDB")
	all := []Backend{
		{"sqlite", SQLite},
		{"postgres", func(t *testing.T) store.Store {
			return openPostgres.Store(t, pgtest.SchemaURL(t), postgres.Options{})
		}},
		{"mysql", func(t *testing.T) store.Store {
			return openMySQL.Store(t, mysqltest.FreshDB(t), mysql.Options{})
		}},
	}
	if os.Getenv("LAPSE_TEST_PGBOUNCER") != "" {
		all = append(all, Backend{"pgbouncer", func(t *testing.T) store.Store {
			return openPostgres.Store(t, pgtest.BouncerURL(t), postgres.Options{})
		}})
	}
	return all
}

// NeedServers skips t unless LAPSE_TEST_POSTGRES and LAPSE_TEST_MYSQL are
// both set, saying what the test does ("this test <does> and needs …") and
// what each variable holds.
func NeedServers(t *testing.T, does string) {
	t.Helper()
	for _, v := range []string{"LAPSE_TEST_POSTGRES", "LAPSE_TEST_MYSQL"} {
		if os.Getenv(v) == "" {
			t.Skipf("%s is unset: this test %s and needs "+
				"LAPSE_TEST_POSTGRES (postgres://postgres@127.0.0.1:5432/test?sslmode=disable) and "+
				"LAPSE_TEST_MYSQL (mysql://root@127.0.0.1:3306/test)", v, does)
		}
	}
}

// SQLite opens a new SQLite store in t's temporary directory, closed when
// t ends.
func SQLite(t *testing.T) store.Store {
	t.Helper()
	return openSQLite.Store(t, filepath.Join(t.TempDir(), "lapse.db"), sqlite.Options{})
}
