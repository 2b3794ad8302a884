package sqlite

import (
	"maps"
	"slices"
)

// QueryText returns the text of the named embedded query, for tests that
// inspect how SQLite plans it.
func QueryText(name string) string { return queries.Get(name) }

// QueryNames names every embedded query.
func QueryNames() []string { return slices.Collect(maps.Keys(queries)) }

// Dialect and Files are the migrator's, for the migration tests.
var Dialect, Files = dialect, files
