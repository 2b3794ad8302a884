package mysql_test

import (
	"database/sql"
	"testing"

	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/store/mysql"
	"github.com/lapsehq/lapse/store/sqlfile/migratetest"
)

// TestMigrations: see migratetest.
func TestMigrations(t *testing.T) {
	ms, err := mysql.Migrations()
	if err != nil {
		t.Fatalf("Migrations: %v", err)
	}
	migratetest.Run(t, migratetest.Backend{
		Fresh: func(t *testing.T) string { return freshDB(t) },
		Open: func(t *testing.T, url string, hooks store.Hooks) (store.Store, error) {
			return mysql.Open(t.Context(), url, mysql.Options{Hooks: hooks})
		},
		DB: func(t *testing.T, url string) *sql.DB { return rawDB(t, url) },
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
		Dialect:    mysql.Dialect,
		Migrations: ms,
	})
}
