package sqlite_test

import (
	"testing"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile/migratetest"
	"github.com/lapsehq/lapse/driver/sqlite"
	"github.com/lapsehq/lapse/storetype"
)

// TestMigrations: see migratetest.
func TestMigrations(t *testing.T) {
	migratetest.Run(t, migratetest.Backend{
		Fresh: tempPath,
		Open: func(t *testing.T, path string, migrated func(storetype.SchemaChange)) (driver.Driver, error) {
			return sqlite.Open(t.Context(), path, sqlite.Options{OnMigrated: migrated})
		},
		DB: rawDB,
		Schema: []string{
			"SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name",
		},
		Dialect: sqlite.Dialect,
		Files:   sqlite.Files,
	})
}
