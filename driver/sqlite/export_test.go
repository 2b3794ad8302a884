package sqlite

import (
	"embed"
	"fmt"
	"maps"
	"regexp"
	"slices"

	"github.com/lapsehq/lapse/driver/internal/sqlfile/querytest"
)

// checked is the queries sqlc checks, as written.
//
//go:embed internal/dbsqlc/*.sql
var checked embed.FS

// QueryText returns the text of the named query, embedded or checked by
// sqlc (its @names numbered in order as sqlc numbers them), for tests that
// inspect how SQLite plans it.
func QueryText(name string) string {
	if s, ok := queries[name]; ok {
		return s
	}
	return numbered(querytest.Checked(checked, "internal/dbsqlc/*.sql", name))
}

// numbered is sqlc's rewrite of s's @names: ?1 for the first named, and so
// on.
func numbered(s string) string {
	var names []string
	return regexp.MustCompile(`@\w+`).ReplaceAllStringFunc(s, func(n string) string {
		i := slices.Index(names, n)
		if i < 0 {
			i, names = len(names), append(names, n)
		}
		return fmt.Sprintf("?%d", i+1)
	})
}

// QueryNames names every embedded query.
func QueryNames() []string { return slices.Collect(maps.Keys(queries)) }

// Dialect and Files are the migrator's, for the migration tests.
var Dialect, Files = dialect, files
