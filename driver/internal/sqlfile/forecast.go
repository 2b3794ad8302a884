package sqlfile

import "github.com/lapsehq/lapse/storetype"

// ScanDueCount scans a row of a Forecast query: the kind, the bucket and
// how many fall due in it.
func ScanDueCount(row Scanner) (c storetype.DueCount, err error) {
	return c, row.Scan(&c.Kind, &c.Bucket, &c.N)
}

// ScanShardLease scans a row of a ShardLeases query on a store whose
// timestamps scan into a time.Time: the shard, its holder, its token and
// when the lease expires.
func ScanShardLease(row Scanner) (l storetype.ShardLease, err error) {
	return l, row.Scan(&l.Shard, &l.Holder, &l.Token, &l.ExpiresAt)
}
