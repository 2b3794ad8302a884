package mysql

import (
	"context"
	"database/sql"
	"strings"

	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/store/sqlfile"
)

// querier runs a query in a transaction or on the pool.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// readDue reads up to p.Limit due rows over the shards of p's leases
// (every shard if none), earliest first, in two steps. First, without
// locking, the IDs: the union of the query due, which reads one shard's
// earliest p.Limit due entries from its due index alone (now, shard,
// limit; it returns id and due), merged earliest first. Then the query
// read (now, then the IDs) reads those rows by primary key, still due, and
// scan scans each. A read that claims (FOR UPDATE SKIP LOCKED) so locks
// the rows it returns and no others: a locking walk of a due range would
// hold every entry it passed (see queries/drain.sql).
func readDue[T any](ctx context.Context, q querier, p store.DueParams, due, read string, scan func(sqlfile.Scanner) (T, error)) ([]T, error) {
	shards := store.ShardsOf(p.Leases)
	parts := make([]string, len(shards))
	args := make([]any, 0, 3*len(shards)+1)
	for i, s := range shards {
		parts[i] = "(" + queries.Get(due) + "\n)"
		args = append(args, p.Now, s, p.Limit)
	}
	union := "SELECT id FROM (" + strings.Join(parts, " UNION ALL ") + ") AS due ORDER BY due LIMIT ?"
	rows, err := q.QueryContext(ctx, union, append(args, p.Limit)...)
	ids, err := sqlfile.Collect(rows, err, func(row sqlfile.Scanner) (id any, err error) { return id, row.Scan(&id) })
	if err != nil || len(ids) == 0 {
		return []T{}, err
	}
	rows, err = q.QueryContext(ctx, expand(queries.Get(read), len(ids)), append([]any{p.Now}, ids...)...)
	return sqlfile.Collect(rows, err, scan)
}
