// Package dbsqlc is the PostgreSQL driver's queries that sqlc checks against
// the migrations and turns into Go: the .sql files here are the source, the
// .sql.go files are generated from them. Run go generate after changing
// either the queries or the migrations.
package dbsqlc

//go:generate go run github.com/sqlc-dev/sqlc/cmd/sqlc@v1.31.1 generate
