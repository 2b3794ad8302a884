package sqlite

import "github.com/lapsehq/lapse/driver/sqlite/internal/dbsqlc"

// q runs the transaction's queries that sqlc generates, on the statements
// prepared on the writer.
func (t *tx) q() *dbsqlc.Queries { return t.driver.sqlc.WithTx(t.sql) }

// readq runs sqlc's queries on the read pool.
func (s *Driver) readq() *dbsqlc.Queries { return dbsqlc.New(s.r) }
