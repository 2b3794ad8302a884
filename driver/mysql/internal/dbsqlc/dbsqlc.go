// Package dbsqlc holds the MariaDB driver's queries that sqlc checks
// against the migrations and turns into Go: the .sql files here are the
// source, the .sql.go files, db.go and models.go are generated from them by
// scripts/sqlc.sh, which CI runs to check that they are up to date.
package dbsqlc
