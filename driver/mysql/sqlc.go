package mysql

import "github.com/lapsehq/lapse/driver/mysql/internal/dbsqlc"

// sq runs the executor's queries that sqlc generates.
func (e *executor) sq() *dbsqlc.Queries { return dbsqlc.New(e.q) }
