package mysql

import "github.com/lapsehq/lapse/driver/mysql/internal/dbsqlc"

// q runs the transaction's queries that sqlc generates.
func (t *tx) q() *dbsqlc.Queries { return dbsqlc.New(t.sql) }

// readq runs sqlc's queries outside any write transaction, on the read
// pool.
func (s *Driver) readq() *dbsqlc.Queries { return dbsqlc.New(s.reads) }
