package sqlfile

import "github.com/lapsehq/lapse/storetype"

// ScanRecord scans a row of a feed query: a record's last position, its
// count of events, its time (as the driver reads a timestamp) and its
// body.
func ScanRecord(row Scanner) (r storetype.Record, err error) {
	return r, row.Scan(&r.Last, &r.N, &r.Time, &r.Body)
}
