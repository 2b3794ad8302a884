package sqlfile

import (
	"github.com/lapsehq/lapse/driver"
)

// ScanStockSum scans a row of a StockPage query: sku, the sums of
// available, reserved and sold, the bucket count and the stock.
func ScanStockSum(row Scanner) (driver.StockSum, error) {
	var k driver.StockSum
	err := row.Scan(&k.SKU.SKU, &k.Available, &k.Reserved, &k.Sold, &k.Buckets, &k.Stock)
	return k, err
}

// ScanStockBucket scans a row of one stock bucket: its number, the bucket
// count, available, reserved and sold.
func ScanStockBucket(row Scanner) (driver.StockBucket, error) {
	var b driver.StockBucket
	err := row.Scan(&b.Bucket, &b.Buckets, &b.Available, &b.Reserved, &b.Sold)
	return b, err
}
