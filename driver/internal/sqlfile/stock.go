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
