package storetest

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// The stock buckets of a hot SKU (see store/stock.go): a SKU's stock split
// over rows, each transaction reserving in a bucket of its own, and the
// SKU's counters the sums over them.
var bucketTests = []test{
	{"SpreadAndSummed", testBucketsSpread},
	{"ReserveGathers", testBucketsGather},
	{"ConcurrentReserversNeverOversell", testBucketsConcurrent},
	{"RebucketWhileReserving", testRebucketWhileReserving},
	{"RebucketKeepsSums", testRebucket},
}

// hot is the bucketed SKU of the bucket tests.
const hot = "hot"

// putBuckets sets hot's stock and bucket count and checks the answer.
func (f *orderFixture) putBuckets(stock int64, buckets int) storetype.SKU {
	f.t.Helper()
	k, err := f.s.PutSKU(f.ctx, store.PutSKUParams{SKU: hot, Stock: stock, Buckets: buckets, Now: t0})
	if err != nil {
		f.t.Fatalf("PutSKU(%d, %d buckets): %v", stock, buckets, err)
	}
	if k.Buckets != buckets || k.Available+k.Reserved+k.Sold != stock {
		f.t.Fatalf("PutSKU(%d, %d buckets): got %+v", stock, buckets, k)
	}
	return k
}

// buckets reads sku's bucket rows through the store's driver.
func (f *orderFixture) buckets(sku string) []driver.StockBucket {
	f.t.Helper()
	bs, err := f.s.(*store.DB).Driver().Executor().StockBuckets(f.ctx, sku)
	if err != nil {
		f.t.Fatalf("StockBuckets(%s): %v", sku, err)
	}
	return bs
}

// wantBuckets checks that sku's rows are its n buckets in order, none
// with negative available or sold, and that they add up to its counters.
func (f *orderFixture) wantBuckets(what, sku string, n int, available, reserved, sold int64) []driver.StockBucket {
	f.t.Helper()
	f.wantSKUBuckets(what, sku, n, available, reserved, sold)
	bs := f.buckets(sku)
	var sum storetype.SKU
	for i, b := range bs {
		if b.Bucket != i || b.Buckets != n || b.Available < 0 || b.Sold < 0 {
			f.t.Fatalf("%s: bucket %d of %d: got %+v", what, i, n, b)
		}
		sum.Available, sum.Reserved, sum.Sold = sum.Available+b.Available, sum.Reserved+b.Reserved, sum.Sold+b.Sold
	}
	if len(bs) != n || sum.Available != available || sum.Reserved != reserved || sum.Sold != sold {
		f.t.Fatalf("%s: buckets %+v, want %d adding up to %d/%d/%d", what, bs, n, available, reserved, sold)
	}
	return bs
}

// wantSKUBuckets checks a SKU's counters and bucket count.
func (f *orderFixture) wantSKUBuckets(what, sku string, n int, available, reserved, sold int64) {
	f.t.Helper()
	want := storetype.SKU{SKU: sku, Available: available, Reserved: reserved, Sold: sold, Buckets: n}
	if got := f.sku(sku); got != want {
		f.t.Fatalf("%s: SKU: got %+v, want %+v", what, got, want)
	}
}

// hotOrder creates an order of qty units of hot; false if hot is short.
func (f *orderFixture) hotOrder(user string, qty int64) (order.Order, bool, error) {
	o, err := f.s.CreateOrder(f.ctx, store.CreateOrderParams{UserID: user,
		Items: []order.Item{{SKU: hot, Qty: qty, UnitPrice: price}}, Deadline: t0.Add(time.Hour), Now: t0})
	if errors.Is(err, order.ErrInsufficientStock) {
		return o, false, nil
	}
	return o, err == nil, err
}

// mustHotOrder creates an order of qty units of hot, or fails the test
// unless short is what happened.
func (f *orderFixture) mustHotOrder(qty int64, short bool) order.Order {
	f.t.Helper()
	o, ok, err := f.hotOrder(buyer, qty)
	if err != nil || ok == short {
		f.t.Fatalf("order of %d: created %t, err %v; want short %t", qty, ok, err, short)
	}
	return o
}

// testBucketsSpread: a new SKU has one bucket; buckets share the stock
// evenly, the first ones a unit more, and the SKU reads as their sums; a
// PUT without a count keeps the SKU's.
func testBucketsSpread(t *testing.T, open opener) {
	f := newOrderFixture(t, open)
	f.wantBuckets("a new SKU", sku1, 1, 10, 0, 0)
	f.putBuckets(10, 8)
	bs := f.wantBuckets("8 buckets", hot, 8, 10, 0, 0)
	for i, want := range []int64{2, 2, 1, 1, 1, 1, 1, 1} {
		if bs[i].Available != want {
			t.Fatalf("bucket %d: got %+v, want %d available", i, bs[i], want)
		}
	}
	f.mustHotOrder(1, false)
	f.wantBuckets("after an order", hot, 8, 9, 1, 0)
	if k, err := f.s.PutSKU(f.ctx, store.PutSKUParams{SKU: hot, Stock: 20, Now: t0}); err != nil || k.Buckets != 8 {
		t.Fatalf("PUT without a count: got %+v, %v; want 8 buckets kept", k, err)
	}
	f.wantBuckets("restocked", hot, 8, 19, 1, 0)
	var inv *coupon.InvalidError
	if _, err := f.s.PutSKU(f.ctx, store.PutSKUParams{SKU: hot, Stock: 20, Buckets: order.MaxBuckets + 1, Now: t0}); !errors.As(err, &inv) {
		t.Fatalf("65 buckets: got %v, want invalid", err)
	}
	f.wantBuckets("after a refused count", hot, 8, 19, 1, 0)
}

// testBucketsGather: an order larger than any bucket gathers its units
// from several; one a single other bucket holds takes it from there; an
// order is refused only when the SKU's sum is short, and a refused one
// changes nothing.
func testBucketsGather(t *testing.T, open opener) {
	f := newOrderFixture(t, open)
	f.putBuckets(8, 8) // one unit a bucket
	f.mustHotOrder(5, false)
	f.wantBuckets("5 of 8 gathered", hot, 8, 3, 5, 0)
	f.mustHotOrder(4, true)
	f.wantBuckets("4 refused", hot, 8, 3, 5, 0)
	f.mustHotOrder(3, false)
	f.wantBuckets("the last 3 gathered", hot, 8, 0, 8, 0)
	f.mustHotOrder(1, true)

	f.putBuckets(24, 8) // 16 available: two units a bucket
	for i := range int64(8) {
		f.mustHotOrder(2, false) // wherever the order's bucket is
		f.wantSKUBuckets(fmt.Sprintf("order %d of 2", i), hot, 8, 14-2*i, 10+2*i, 0)
	}
	f.mustHotOrder(1, true)
	f.wantBuckets("sold out", hot, 8, 0, 24, 0)
}

// testBucketsConcurrent: 16 clients order one unit each of a SKU of 8
// buckets, more than its stock: exactly the stock is reserved, never
// more; then paying and closing some of the orders, concurrently, keeps
// the sums exact.
func testBucketsConcurrent(t *testing.T, open opener) {
	const (
		stock   = 60
		clients = 16
		each    = 6 // 96 orders for 60 units
	)
	f := newOrderFixture(t, open)
	f.putBuckets(stock, 8)
	orders := f.orderConcurrently(clients, each)
	if len(orders) != stock {
		t.Fatalf("created %d orders of one unit, want %d: the stock", len(orders), stock)
	}
	f.wantBuckets("sold out", hot, 8, 0, stock, 0)

	var (
		wg   sync.WaitGroup
		errs = make(chan error, len(orders))
	)
	for i, o := range orders {
		wg.Go(func() {
			var err error
			switch i % 3 {
			case 0:
				_, err = f.s.PayOrder(f.ctx, store.PayOrderParams{OrderID: o.ID, PaymentID: "p" + o.ID, Amount: o.AmountDue, Now: t0})
			case 1:
				_, err = f.s.CloseOrder(f.ctx, store.CloseOrderParams{OrderID: o.ID, Reason: order.ReasonCancelled, Now: t0})
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("pay or close: %v", err)
		}
	}
	f.wantBuckets("a third paid, a third closed", hot, 8, stock/3, stock/3, stock/3)
	f.orderConcurrently(clients, each)
	f.wantBuckets("the closed units sold out again", hot, 8, 0, 2*stock/3, stock/3)
}

// orderConcurrently has clients clients create each one-unit orders of
// hot at once, and returns those created.
func (f *orderFixture) orderConcurrently(clients, each int) []order.Order {
	f.t.Helper()
	var (
		mu      sync.Mutex
		created []order.Order
		failed  error
		wg      sync.WaitGroup
	)
	for c := range clients {
		wg.Go(func() {
			for range each {
				o, ok, err := f.hotOrder(fmt.Sprintf("u%d", c), 1)
				mu.Lock()
				if ok {
					created = append(created, o)
				}
				if failed == nil {
					failed = err
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if failed != nil {
		f.t.Fatalf("create: %v", failed)
	}
	return created
}

// testRebucketWhileReserving: while 16 clients order exactly a SKU's
// stock, its bucket count keeps changing (8, 3, 1, 64 …, the stock kept):
// every order is served (none refused while the sum has stock), and none
// more.
func testRebucketWhileReserving(t *testing.T, open opener) {
	const (
		stock   = 64
		clients = 16
	)
	f := newOrderFixture(t, open)
	f.putBuckets(stock, 8)
	done := make(chan struct{})
	rebucketed := make(chan error, 1)
	go func() {
		counts := []int{3, 1, 64, 8, 5}
		var err error
		for i := 0; err == nil; i++ {
			select {
			case <-done:
				rebucketed <- nil
				return
			default:
			}
			_, err = f.s.PutSKU(f.ctx, store.PutSKUParams{SKU: hot, Stock: stock, Buckets: counts[i%len(counts)], Now: t0})
		}
		rebucketed <- err
	}()
	orders := f.orderConcurrently(clients, stock/clients)
	close(done)
	if err := <-rebucketed; err != nil {
		t.Fatalf("PutSKU while reserving: %v", err)
	}
	if len(orders) != stock {
		t.Fatalf("created %d of %d orders, with the stock for all", len(orders), stock)
	}
	f.mustHotOrder(1, true)
	k := f.sku(hot)
	f.wantBuckets("sold out", hot, k.Buckets, 0, stock, 0)
}

// testRebucket: changing a SKU's count (8, 3, 1) keeps its sums, folds
// reserved and sold into bucket 0, and the orders reserved before pay and
// close exactly after.
func testRebucket(t *testing.T, open opener) {
	f := newOrderFixture(t, open)
	f.putBuckets(40, 8)
	var orders []order.Order
	for range 10 {
		orders = append(orders, f.mustHotOrder(3, false))
	}
	for _, o := range orders[:4] {
		if _, err := f.s.PayOrder(f.ctx, store.PayOrderParams{OrderID: o.ID, PaymentID: "p" + o.ID, Amount: o.AmountDue, Now: t0}); err != nil {
			t.Fatalf("pay: %v", err)
		}
	}
	f.wantBuckets("8 buckets", hot, 8, 10, 18, 12)
	for _, n := range []int{3, 1} {
		f.putBuckets(40, n)
		bs := f.wantBuckets(fmt.Sprintf("%d buckets", n), hot, n, 10, 18, 12)
		if bs[0].Reserved != 18 || bs[0].Sold != 12 {
			t.Fatalf("%d buckets: bucket 0 %+v, want reserved and sold folded in", n, bs[0])
		}
	}
	for i, o := range orders[4:] {
		var err error
		if i%2 == 0 {
			_, err = f.s.PayOrder(f.ctx, store.PayOrderParams{OrderID: o.ID, PaymentID: "p" + o.ID, Amount: o.AmountDue, Now: t0})
		} else {
			_, err = f.s.CloseOrder(f.ctx, store.CloseOrderParams{OrderID: o.ID, Reason: order.ReasonCancelled, Now: t0})
		}
		if err != nil {
			t.Fatalf("pay or close: %v", err)
		}
	}
	f.wantBuckets("all paid or closed", hot, 1, 19, 0, 21)
}
