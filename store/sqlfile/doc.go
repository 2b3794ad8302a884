// Package sqlfile loads what SQL backends keep in embedded .sql files,
// named queries and numbered migrations, and applies the migrations: a
// number is one schema change on every store (see LoadMigrations).
package sqlfile
