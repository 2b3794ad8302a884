package postgres

import (
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/lapsehq/lapse/storetype"
)

// ranges splits the shards of leases ls (every shard if none) into runs
// of consecutive shards: a drain walks each run as a range, which the due
// indexes test in due order (see queries/drain.sql). The fair shares
// taken lowest shard first make one run per instance the usual case.
func ranges(ls storetype.Leases) [][2]int {
	var out [][2]int
	for _, s := range ls.Shards() {
		if n := len(out); n > 0 && out[n-1][1] == s-1 {
			out[n-1][1] = s
			continue
		}
		out = append(out, [2]int{s, s})
	}
	return out
}

// claimRanges claims due rows over the shard ranges of p's leases, with
// claim(limit, lo, hi), until p.Limit rows are claimed: each range in due
// order, one after the other. It returns them earliest due first, due
// being a row's due time. (With more than one range and rows past
// p.Limit, the earliest range's rows are claimed first, not the earliest
// due of all ranges.)
func claimRanges[T any](p storetype.DueParams, due func(T) time.Time, claim func(limit, lo, hi int) ([]T, error)) ([]T, error) {
	var out []T
	for _, r := range ranges(p.Leases) {
		if len(out) >= p.Limit {
			break
		}
		got, err := claim(p.Limit-len(out), r[0], r[1])
		if err != nil {
			return nil, err
		}
		out = append(out, got...)
	}
	slices.SortStableFunc(out, func(a, b T) int { return due(a).Compare(due(b)) })
	return out, nil
}

// earliest returns the earliest time read(lo, hi) reads over the shard
// ranges of ls, zero if none reads one.
func earliest(ls storetype.Leases, read func(lo, hi int16) (time.Time, error)) (time.Time, error) {
	var first time.Time
	for _, r := range ranges(ls) {
		v, err := read(int16(r[0]), int16(r[1]))
		if err == pgx.ErrNoRows {
			continue
		}
		if err != nil {
			return first, err
		}
		if first.IsZero() || v.Before(first) {
			first = v
		}
	}
	return first, nil
}
