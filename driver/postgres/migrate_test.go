package postgres_test

import (
	"database/sql"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile/migratetest"
	"github.com/lapsehq/lapse/driver/postgres"
	"github.com/lapsehq/lapse/driver/postgres/pgtest"
	"github.com/lapsehq/lapse/storetype"
)

// TestMigrations: see migratetest. Schemas are compared without their
// name, which each test's differs in.
func TestMigrations(t *testing.T) {
	migratetest.Run(t, migratetest.Backend{
		Fresh: pgtest.SchemaURL,
		Open: func(t *testing.T, url string, migrated func(storetype.SchemaChange)) (driver.Driver, error) {
			return postgres.Open(t.Context(), url, postgres.Options{OnMigrated: migrated})
		},
		DB: func(t testing.TB, url string) *sql.DB {
			db, err := sql.Open("pgx", url)
			if err != nil {
				t.Fatalf("open %s: %v", url, err)
			}
			t.Cleanup(func() { db.Close() })
			return db
		},
		Schema: []string{
			`SELECT table_name, column_name, ordinal_position, data_type, collation_name, is_nullable,
				column_default, is_identity, generation_expression
			FROM information_schema.columns WHERE table_schema = current_schema()
			ORDER BY table_name, ordinal_position`,
			`SELECT tablename, indexname, replace(indexdef, current_schema() || '.', '')
			FROM pg_indexes WHERE schemaname = current_schema() ORDER BY tablename, indexname`,
			`SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid)
			FROM pg_constraint WHERE connamespace = current_schema()::regnamespace ORDER BY 1, 2`,
			`SELECT table_name, view_definition FROM information_schema.views
			WHERE table_schema = current_schema() ORDER BY table_name`,
		},
		Dialect: postgres.Dialect,
		Files:   postgres.Files,
	})
}
