package sqlfile

import "github.com/lapsehq/lapse/storetype"

// ScanDueCount scans a row of a Forecast query: the kind, the bucket and
// how many fall due in it.
func ScanDueCount(row Scanner) (c storetype.DueCount, err error) {
	return c, row.Scan(&c.Kind, &c.Bucket, &c.N)
}
