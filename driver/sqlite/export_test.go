package sqlite

import (
	"embed"
	"maps"
	"slices"

	"github.com/lapsehq/lapse/driver/internal/sqlfile/querytest"
)

// checked is the queries sqlc checks, as written.
//
//go:embed internal/dbsqlc/*.sql
var checked embed.FS

// QueryText returns the text of the named query, embedded or checked by
// sqlc, for tests that inspect how SQLite plans it (see querytest.Text).
func QueryText(name string) string { return querytest.Text(queries, checked, name, "?") }

// QueryNames names every embedded query.
func QueryNames() []string { return slices.Collect(maps.Keys(queries)) }

// Dialect and Files are the migrator's, for the migration tests.
var Dialect, Files = dialect, files

// ShrinkAfter is how long without a commit the WAL file waits to be
// truncated.
const ShrinkAfter = shrinkAfter
