package httpapi

import (
	"os"
	"testing"

	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/store/mysql"
	"github.com/lapsehq/lapse/store/mysql/mysqltest"
	"github.com/lapsehq/lapse/store/postgres"
	"github.com/lapsehq/lapse/store/postgres/pgtest"
)

// backend is one store the API runs over, opened fresh for a test.
type backend struct {
	name string
	open func(t *testing.T) store.Store
}

// backends returns SQLite, PostgreSQL and MySQL/MariaDB, each opening a
// store of its own (a file, a schema, a database) closed when the test
// ends. It skips t unless LAPSE_TEST_POSTGRES and LAPSE_TEST_MYSQL are set:
// the tests that take them compare the stores, which needs all three.
func backends(t *testing.T) []backend {
	t.Helper()
	for _, v := range []string{"LAPSE_TEST_POSTGRES", "LAPSE_TEST_MYSQL"} {
		if os.Getenv(v) == "" {
			t.Skipf("%s is unset: this test compares SQLite, PostgreSQL and MySQL/MariaDB and needs "+
				"LAPSE_TEST_POSTGRES (postgres://postgres@127.0.0.1:5432/test?sslmode=disable) and "+
				"LAPSE_TEST_MYSQL (mysql://root@127.0.0.1:3306/test)", v)
		}
	}
	return []backend{
		{"sqlite", openSQLite},
		{"postgres", func(t *testing.T) store.Store {
			st, err := postgres.Open(t.Context(), pgtest.SchemaURL(t), postgres.Options{})
			return opened(t, st, err)
		}},
		{"mysql", func(t *testing.T) store.Store {
			st, err := mysql.Open(t.Context(), mysqltest.FreshDB(t), mysql.Options{})
			return opened(t, st, err)
		}},
	}
}

// opened returns a store just opened, to be closed when t ends, or fails
// t with the error that kept it from opening.
func opened(t *testing.T, st store.Store, err error) store.Store {
	t.Helper()
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}
