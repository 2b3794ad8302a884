package driver

import (
	"time"
)

// StockBucket is one bucket of a SKU's stock: its number, the SKU's
// bucket count, and its share of the three counters. Stock, the SKU's
// total as last put, is written with every bucket (PutStockBucket) for
// reconciliation; reads of buckets leave it zero.
type StockBucket struct {
	Bucket    int
	Buckets   int
	Available int64
	Reserved  int64
	Sold      int64
	Stock     int64
}

// StockDelta is a change of one bucket's counters: the amounts to add to
// each, to bucket Bucket of SKU as long as the SKU has Buckets buckets.
type StockDelta struct {
	SKU       string
	Bucket    int
	Buckets   int
	Available int64
	Reserved  int64
	Sold      int64
	Now       time.Time
}
