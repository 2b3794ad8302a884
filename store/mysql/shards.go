package mysql

import "github.com/lapsehq/lapse/store"

// byShard reads up to p.Limit due rows over the shards of p's leases
// (every shard if none) with read(shard, limit), one shard after the
// other in shard order: each read walks one shard's range of its due
// index, which holds no other shard's entry, so that a locking read holds
// the rows it returns and no more (see queries/drain.sql).
func byShard[T any](p store.DueParams, read func(shard, limit int) ([]T, error)) ([]T, error) {
	var out []T
	for _, s := range store.ShardsOf(p.Leases) {
		if len(out) >= p.Limit {
			break
		}
		got, err := read(s, p.Limit-len(out))
		if err != nil {
			return nil, err
		}
		out = append(out, got...)
	}
	return out, nil
}
