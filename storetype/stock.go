package storetype

// SKU is the stock of one SKU in its three counters, each the sum over
// the SKU's buckets (see StockBucket). Their sum is the stock last set by
// PutSKU.
type SKU struct {
	SKU       string
	Available int64
	Reserved  int64
	Sold      int64
	// Buckets is how many buckets the stock is split into.
	Buckets int
}
