package mysql

import "github.com/lapsehq/lapse/driver/mysql/internal/dbsqlc"

// sq runs the executor's queries that sqlc generates.
func (e *executor) sq() *dbsqlc.Queries { return dbsqlc.New(e.q) }

// later runs the executor's blind writes that sqlc generates: in a
// transaction its batch holds them for its next round trip (see batch).
func (e *executor) later() *dbsqlc.Queries {
	if e.tx == nil {
		return e.sq()
	}
	return dbsqlc.New(holder{e.tx})
}
