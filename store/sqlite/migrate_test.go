package sqlite_test

import (
	"testing"

	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/store/sqlfile/migratetest"
	"github.com/lapsehq/lapse/store/sqlite"
)

// TestMigrations: see migratetest.
func TestMigrations(t *testing.T) {
	migratetest.Run(t, migratetest.Backend{
		Fresh: tempPath,
		Open: func(t *testing.T, path string, hooks store.Hooks) (store.Store, error) {
			return sqlite.Open(t.Context(), path, sqlite.Options{Hooks: hooks})
		},
		DB: rawDB,
		Schema: []string{
			"SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name",
		},
		Dialect: sqlite.Dialect,
		Files:   sqlite.Files,
	})
}
