package sqlfile

import "github.com/lapsehq/lapse/storetype"

// ScanLease scans a row of a lease query: the shard and its token.
func ScanLease(row Scanner) (l storetype.Lease, err error) {
	return l, row.Scan(&l.Shard, &l.Token)
}
