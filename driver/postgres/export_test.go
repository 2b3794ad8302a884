package postgres

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
// sqlc, for tests that run or explain it directly (see querytest.Text).
func QueryText(name string) string { return querytest.Text(queries, checked, name, "$") }

// QueryNames names every embedded query.
func QueryNames() []string { return slices.Collect(maps.Keys(queries)) }

// Dialect and Files are the migrator's, for the migration tests.
var Dialect, Files = dialect, files

// Pooled reports whether Open found a pooler in front of PostgreSQL.
func (s *Driver) Pooled() bool { return s.pooled }
