// Package sqlfile loads what SQL backends keep in embedded .sql files:
// named queries and numbered migrations.
package sqlfile
