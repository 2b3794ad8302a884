package mysql

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/mysql/internal/dbsqlc"
	"github.com/lapsehq/lapse/storetype"
)

// readDue reads up to p.Limit due rows over the shards of p's leases
// (every shard if none), earliest first, in two round trips. First,
// without locking, how many of the earliest p.Limit come from each shard:
// the union of the query shards, which reads one shard's earliest p.Limit
// due entries from its due index alone (now, shard, limit; it returns
// shard and due), merged earliest first. Then read (a claim that sqlc
// checks) walks one shard's due range for its count, and readDue runs
// that walk for every shard with a count as one statement (see union); at
// is a row's due time, which orders the result. A read that claims (FOR
// UPDATE SKIP LOCKED) so locks the rows it returns and no others (see
// queries/drain.sql).
func readDue[T any](ctx context.Context, q querier, p storetype.DueParams, shards string, read func(context.Context, *dbsqlc.Queries, claim) ([]T, error), at func(T) time.Time) ([]T, error) {
	counts, err := dueCounts(ctx, q, p, shards)
	if err != nil {
		return nil, err
	}
	u := &union{querier: q}
	for _, s := range p.Leases.Shards() {
		if counts[s] == 0 {
			continue
		}
		if _, err := read(ctx, dbsqlc.New(u), claim{now: p.Now, shard: s, limit: counts[s]}); !errors.Is(err, errGathered) {
			return nil, fmt.Errorf("mysql: a shard's claim ran on its own: %v", err)
		}
	}
	if len(u.parts) == 0 {
		return []T{}, nil
	}
	u.gathered = true
	out, err := read(ctx, dbsqlc.New(u), claim{})
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(out, func(a, b T) int { return at(a).Compare(at(b)) })
	return out, nil
}

// union gathers the claims of a drain's shards as sqlc's queries hand it
// their statement and arguments, then runs them in one round trip: the
// UNION ALL of the claims, each in parentheses with its own ORDER BY,
// LIMIT and locking clause, so that each walks its own shard's range as it
// would alone. A batch of a few rows due in many shards, the expiry of a
// busy day, took a round trip a shard when each shard's claim ran on its
// own: with MariaDB a 2.4 ms round trip away, the steady expiry lag p99
// was 51-53 ms that way and 22-25 ms this way (docs/benchmarks.md).
type union struct {
	querier  // the transaction the union runs in
	parts    []string
	args     []any
	gathered bool
}

// errGathered is what a claim handed to a union that is still gathering
// returns.
var errGathered = errors.New("claim gathered into a union")

// QueryContext gathers query and args, or, once gathered, runs the union.
func (u *union) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if u.gathered {
		return u.querier.QueryContext(ctx, strings.Join(u.parts, " UNION ALL "), u.args...)
	}
	u.parts = append(u.parts, "("+query+"\n)")
	u.args = append(u.args, args...)
	return nil, errGathered
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
