package postgres

import (
	"maps"
	"slices"

	"github.com/lapsehq/lapse/store/sqlfile"
)

// QueryText returns the text of the named embedded query, for tests that
// run or explain it directly.
func QueryText(name string) string { return queries.Get(name) }

// QueryNames names every embedded query.
func QueryNames() []string { return slices.Collect(maps.Keys(queries)) }

// Dialect is the migrator's, for the migration tests.
var Dialect = dialect

// Migrations returns the embedded migrations, for the migration tests.
func Migrations() ([]sqlfile.Migration, error) { return sqlfile.LoadMigrations(files, "migrations") }
