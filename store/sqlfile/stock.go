package sqlfile

import "github.com/lapsehq/lapse/store"

// ScanStockSum scans a row of a StockPage query: sku, the sums of
// available, reserved and sold, the bucket count and the stock.
func ScanStockSum(row Scanner) (store.StockSum, error) {
	var k store.StockSum
	err := row.Scan(&k.SKU.SKU, &k.Available, &k.Reserved, &k.Sold, &k.Buckets, &k.Stock)
	return k, err
}
