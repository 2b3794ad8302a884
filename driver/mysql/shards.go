package mysql

import (
	"context"
	"database/sql"
	"slices"
	"strings"
	"time"

	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/mysql/internal/dbsqlc"
	"github.com/lapsehq/lapse/storetype"
)

// readDue reads up to p.Limit due rows over the shards of p's leases
// (every shard if none), earliest first, in two steps. First, without
// locking, how many of the earliest p.Limit come from each shard: the
// union of the query shards, which reads one shard's earliest p.Limit due
// entries from its due index alone (now, shard, limit; it returns shard
// and due), merged earliest first. Then, for each shard, read (a claim
// that sqlc checks) walks that shard's due range for its count; at is a
// row's due time, which orders the result. A read
// that claims (FOR UPDATE SKIP LOCKED) so locks the rows it returns and
// no others (see queries/drain.sql).
func readDue[T any](ctx context.Context, q querier, p storetype.DueParams, shards string, read func(context.Context, *dbsqlc.Queries, claim) ([]T, error), at func(T) time.Time) ([]T, error) {
	counts, err := dueCounts(ctx, q, p, shards)
	if err != nil {
		return nil, err
	}
	out := []T{}
	for _, s := range p.Leases.Shards() {
		if counts[s] == 0 {
			continue
		}
		got, err := read(ctx, dbsqlc.New(q), claim{now: p.Now, shard: s, limit: counts[s]})
		if err != nil {
			return nil, err
		}
		out = append(out, got...)
	}
	slices.SortStableFunc(out, func(a, b T) int { return at(a).Compare(at(b)) })
	return out, nil
}

// claim is the arguments of a drain's claim of one shard: read the due
// rows of shard at now, up to limit.
type claim struct {
	now          time.Time
	shard, limit int
}

// args are c's arguments as the sqlc claims type them.
func (c claim) args() (now time.Time, shard sql.NullInt16, limit int32) {
	return c.now, sql.NullInt16{Int16: int16(c.shard), Valid: true}, int32(c.limit)
}

// dueCounts reads, without locking, how many of the earliest p.Limit due
// rows over p's shards each shard holds, by the union of the query
// shards over them (see readDue).
func dueCounts(ctx context.Context, q querier, p storetype.DueParams, shards string) (map[int]int, error) {
	list := p.Leases.Shards()
	parts := make([]string, len(list))
	args := make([]any, 0, 3*len(list)+1)
	for i, s := range list {
		parts[i] = "(" + queries.Get(shards) + "\n)"
		args = append(args, p.Now, s, p.Limit)
	}
	union := "SELECT shard FROM (" + strings.Join(parts, " UNION ALL ") + ") AS due ORDER BY due LIMIT ?"
	rows, err := q.QueryContext(ctx, union, append(args, p.Limit)...)
	due, err := sqlfile.Collect(rows, err, func(row sqlfile.Scanner) (s int, err error) { return s, row.Scan(&s) })
	counts := map[int]int{}
	for _, s := range due {
		counts[s]++
	}
	return counts, err
}
