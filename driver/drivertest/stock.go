package drivertest

import (
	"slices"

	"github.com/lapsehq/lapse/driver"
)

// stockTests test the stock rows: a SKU's buckets and the guarded add to
// one.
var stockTests = []test{
	{"NewStock", testNewStock},
	{"AddGuards", testAddStock},
	{"PutDropBuckets", testStockBuckets},
}

// wantBuckets fails unless sku's buckets, read through the driver's
// Executor and in a transaction, are want, in bucket order.
func (f *fixture) wantBuckets(what, sku string, want ...driver.StockBucket) {
	f.t.Helper()
	check := func(e driver.Executor) {
		f.t.Helper()
		got, err := e.StockBuckets(f.ctx, sku)
		ok(f.t, "StockBuckets", err)
		// Stock is the stock last put, which StockBuckets does not read.
		for i := range got {
			got[i].Stock = 0
		}
		if !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
			f.t.Fatalf("%s: got %+v, want %+v", what, got, want)
		}
	}
	check(f.d.Executor())
	f.tx(check)
}

// testNewStock: NewStock stores one empty bucket, once; an unknown SKU has
// no buckets.
func testNewStock(f *fixture) {
	f.wantBuckets("unknown", "sku1")
	for range 2 {
		f.tx(func(tx driver.Executor) {
			ok(f.t, "NewStock", tx.NewStock(f.ctx, driver.NewStockParams{SKU: "sku1", Now: t0}))
		})
		f.wantBuckets("new", "sku1", driver.StockBucket{Bucket: 0, Buckets: 1})
	}
}

// testAddStock: AddStock adds to one bucket, and changes nothing when the
// bucket is missing, the bucket count differs or available would go
// negative.
func testAddStock(f *fixture) {
	f.tx(func(tx driver.Executor) {
		for b := range 2 {
			ok(f.t, "PutStockBucket", tx.PutStockBucket(f.ctx, driver.PutStockBucketParams{SKU: "sku1",
				Bucket: driver.StockBucket{Bucket: b, Buckets: 2, Available: 5, Stock: 10}, Now: t0}))
		}
	})
	for _, tc := range []struct {
		name string
		d    driver.StockDelta
		add  bool
	}{
		{"reserve", driver.StockDelta{SKU: "sku1", Bucket: 1, Buckets: 2, Available: -3, Reserved: 3, Now: t0}, true},
		{"sell", driver.StockDelta{SKU: "sku1", Bucket: 1, Buckets: 2, Reserved: -1, Sold: 1, Now: t0}, true},
		{"below zero", driver.StockDelta{SKU: "sku1", Bucket: 1, Buckets: 2, Available: -3, Reserved: 3, Now: t0}, false},
		{"other bucket count", driver.StockDelta{SKU: "sku1", Bucket: 0, Buckets: 1, Available: -1, Reserved: 1, Now: t0}, false},
		{"missing bucket", driver.StockDelta{SKU: "sku1", Bucket: 2, Buckets: 2, Available: 1, Now: t0}, false},
		{"unknown SKU", driver.StockDelta{SKU: "sku9", Bucket: 0, Buckets: 1, Available: 1, Now: t0}, false},
	} {
		f.tx(func(tx driver.Executor) {
			added, err := tx.AddStock(f.ctx, tc.d)
			ok(f.t, tc.name, err)
			want(f.t, tc.name, added, tc.add)
		})
	}
	f.wantBuckets("after AddStock", "sku1",
		driver.StockBucket{Bucket: 0, Buckets: 2, Available: 5},
		driver.StockBucket{Bucket: 1, Buckets: 2, Available: 2, Reserved: 2, Sold: 1})
}

// testStockBuckets: PutStockBucket writes a bucket whether it exists or
// not; DropStockBuckets deletes the buckets from a number on.
func testStockBuckets(f *fixture) {
	f.tx(func(tx driver.Executor) {
		ok(f.t, "NewStock", tx.NewStock(f.ctx, driver.NewStockParams{SKU: "sku1", Now: t0}))
		for b := range 3 {
			ok(f.t, "PutStockBucket", tx.PutStockBucket(f.ctx, driver.PutStockBucketParams{SKU: "sku1",
				Bucket: driver.StockBucket{Bucket: b, Buckets: 3, Available: int64(b + 1), Sold: 1}, Now: t0}))
		}
		ok(f.t, "NewStock", tx.NewStock(f.ctx, driver.NewStockParams{SKU: "sku2", Now: t0}))
	})
	f.wantBuckets("put", "sku1",
		driver.StockBucket{Bucket: 0, Buckets: 3, Available: 1, Sold: 1},
		driver.StockBucket{Bucket: 1, Buckets: 3, Available: 2, Sold: 1},
		driver.StockBucket{Bucket: 2, Buckets: 3, Available: 3, Sold: 1})
	f.tx(func(tx driver.Executor) {
		ok(f.t, "DropStockBuckets", tx.DropStockBuckets(f.ctx, driver.DropStockBucketsParams{SKU: "sku1", From: 1}))
	})
	f.wantBuckets("dropped", "sku1", driver.StockBucket{Bucket: 0, Buckets: 3, Available: 1, Sold: 1})
	f.wantBuckets("other SKU", "sku2", driver.StockBucket{Bucket: 0, Buckets: 1})
}
