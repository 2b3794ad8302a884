package postgres

import (
	"maps"
	"slices"
)

// QueryText returns the text of the named embedded query, for tests that
// run or explain it directly.
func QueryText(name string) string { return queries.Get(name) }

// QueryNames names every embedded query.
func QueryNames() []string { return slices.Collect(maps.Keys(queries)) }

// Dialect and Files are the migrator's, for the migration tests.
var Dialect, Files = dialect, files
