package mysql_test

import (
	"testing"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile/migratetest"
	"github.com/lapsehq/lapse/driver/mysql"
	"github.com/lapsehq/lapse/storetype"
)

// TestMigrations: see migratetest.
func TestMigrations(t *testing.T) {
	migratetest.Run(t, migratetest.Backend{
		Fresh: freshDB,
		Open: func(t *testing.T, url string, migrated func(storetype.SchemaChange)) (driver.Driver, error) {
			return mysql.Open(t.Context(), url, mysql.Options{OnMigrated: migrated})
		},
		DB: rawDB,
		Schema: []string{
			`SELECT table_name, engine, table_collation FROM information_schema.tables
			WHERE table_schema = DATABASE() ORDER BY table_name`,
			`SELECT table_name, column_name, ordinal_position, column_type, is_nullable, column_default,
				collation_name, extra, generation_expression
			FROM information_schema.columns WHERE table_schema = DATABASE()
			ORDER BY table_name, ordinal_position`,
			`SELECT table_name, index_name, seq_in_index, column_name, non_unique, sub_part
			FROM information_schema.statistics WHERE table_schema = DATABASE()
			ORDER BY table_name, index_name, seq_in_index`,
			`SELECT constraint_name, check_clause FROM information_schema.check_constraints
			WHERE constraint_schema = DATABASE() ORDER BY constraint_name`,
		},
		Dialect: mysql.Dialect,
		Files:   mysql.Files,
	})
}
