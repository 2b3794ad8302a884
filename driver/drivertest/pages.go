package drivertest

import (
	"fmt"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/storetype"
)

// pageTests test the reads reconciliation pages through, and the reads
// of the earliest pending due time.
var pageTests = []test{
	{"StockPage", testStockPage},
	{"OrderPages", testOrderPages},
	{"LockedPage", testLockedPage},
	{"NextDue", testNextDue},
	{"PendingFrom", testPendingFrom},
}

// testStockPage: SKUs after After by SKU, up to Limit, with the sums of
// their buckets and the stock last put.
func testStockPage(f *fixture) {
	f.tx(func(tx driver.Executor) {
		for _, sku := range []string{"b", "a", "c"} {
			for b := range 2 {
				ok(f.t, "PutStockBucket", tx.PutStockBucket(f.ctx, driver.PutStockBucketParams{SKU: sku,
					Bucket: driver.StockBucket{Bucket: b, Buckets: 2, Available: 3, Reserved: 1, Sold: 2, Stock: 12}, Now: t0}))
			}
		}
	})
	got, err := f.d.Executor().StockPage(f.ctx, driver.PageParams{After: "a", Limit: 1})
	ok(f.t, "StockPage", err)
	want(f.t, "StockPage", len(got), 1)
	want(f.t, "StockPage", got[0], driver.StockSum{SKU: storetype.SKU{SKU: "b", Available: 6, Reserved: 2, Sold: 4, Buckets: 2}, Stock: 12})
	got, err = f.d.Executor().StockPage(f.ctx, driver.PageParams{After: "c", Limit: 10})
	ok(f.t, "StockPage", err)
	want(f.t, "StockPage past the end", len(got), 0)
}

// testOrderPages: unpaid orders after (At, After) by deadline then ID;
// paid and closed ones after After by ID.
func testOrderPages(f *fixture) {
	f.insertOrders(newOrder("o1", t0.Add(time.Hour)), newOrder("o2", t0), newOrder("o3", t0), newOrder("o4", t0), newOrder("o5", t0))
	f.setOrder("o4", order.Paid, t0)
	f.setOrder("o5", order.Closed, t0)
	for _, tc := range []struct {
		p    driver.PageParams
		want []string
	}{
		{driver.PageParams{Limit: 10}, []string{"o2", "o3", "o1"}},
		{driver.PageParams{At: t0, After: "o2", Limit: 10}, []string{"o3", "o1"}},
		{driver.PageParams{At: t0, After: "o3", Limit: 1}, []string{"o1"}},
	} {
		got, err := f.d.Executor().OpenOrderPage(f.ctx, tc.p)
		ok(f.t, "OpenOrderPage", err)
		wantIDs(f.t, "OpenOrderPage", got, orderID, tc.want...)
	}
	got, err := f.d.Executor().FinishedOrderPage(f.ctx, driver.PageParams{Limit: 10})
	ok(f.t, "FinishedOrderPage", err)
	wantIDs(f.t, "FinishedOrderPage", got, orderID, "o4", "o5")
	got, err = f.d.Executor().FinishedOrderPage(f.ctx, driver.PageParams{After: "o4", Limit: 10})
	ok(f.t, "FinishedOrderPage", err)
	wantIDs(f.t, "FinishedOrderPage after", got, orderID, "o5")
}

// testLockedPage: locked coupons after (At, After) by locked_until then
// ID, up to Limit.
func testLockedPage(f *fixture) {
	f.insertTemplates(newTemplate("tp1", 0))
	f.insertCoupons(newCoupon("c1", "tp1", "u1", t0), newCoupon("c2", "tp1", "u1", t0), newCoupon("c3", "tp1", "u1", t0),
		newCoupon("c4", "tp1", "u1", t0))
	f.lock("c1", t0.Add(2*time.Hour))
	f.lock("c2", t0.Add(time.Hour))
	f.lock("c3", t0.Add(time.Hour))
	for _, tc := range []struct {
		p    driver.PageParams
		want []string
	}{
		{driver.PageParams{Limit: 10}, []string{"c2", "c3", "c1"}},
		{driver.PageParams{At: t0.Add(time.Hour), After: "c2", Limit: 10}, []string{"c3", "c1"}},
		{driver.PageParams{At: t0.Add(time.Hour), After: "c2", Limit: 1}, []string{"c3"}},
	} {
		got, err := f.d.Executor().LockedPage(f.ctx, tc.p)
		ok(f.t, "LockedPage", err)
		wantIDs(f.t, "LockedPage", got, couponID, tc.want...)
	}
}

// testNextDue: the earliest due time of each kind's pending work, of the
// leases' shards; zero if none.
func testNextDue(f *fixture) {
	f.insertTemplates(newTemplate("tp1", 0))
	in2, in4 := inShard("c", 2, 0), inShard("c", 4, 0)
	f.insertCoupons(newCoupon(in2, "tp1", "u1", t0.Add(time.Hour)), newCoupon(in4, "tp1", "u1", t0),
		newCoupon("locked", "tp1", "u1", t0))
	f.lock("locked", t0.Add(5*time.Minute))
	f.insertOrders(newOrder("o1", t0.Add(time.Minute)))
	shard2 := []storetype.Lease{{Shard: 2, Holder: "h", Token: 1}}
	for _, tc := range []struct {
		name string
		kind storetype.TimerKind
		ls   []storetype.Lease
		want time.Time
	}{
		{"expire", storetype.TimerExpire, nil, t0.Add(24 * time.Hour)},
		{"expire shard 2", storetype.TimerExpire, shard2, t0.Add(25 * time.Hour)},
		{"release", storetype.TimerRelease, nil, t0.Add(5 * time.Minute)},
		{"close", storetype.TimerClose, nil, t0.Add(time.Minute)},
		{"remind none", storetype.TimerRemind, nil, time.Time{}},
	} {
		f.tx(func(tx driver.Executor) {
			got, err := tx.NextDue(f.ctx, driver.NextDueParams{Kind: tc.kind, Leases: tc.ls})
			ok(f.t, tc.name, err)
			wantTime(f.t, tc.name, got, tc.want)
		})
	}
}

// testPendingFrom: the earliest due time at or after from of the pending
// work of a kind: unused coupons by expires_at, locked ones by
// locked_until, in every shard; unpaid orders by deadline (paid and
// closed ones left out), in the leased shards, all if none; zero if none.
func testPendingFrom(f *fixture) {
	f.insertTemplates(newTemplate("tp1", 0))
	f.insertCoupons(newCoupon("c1", "tp1", "u1", t0), newCoupon("c2", "tp1", "u1", t0.Add(time.Hour)), newCoupon("c3", "tp1", "u1", t0))
	f.lock("c3", t0.Add(time.Minute))
	f.setCoupon("c1", coupon.Used, t0)
	// in9 is due after out5, which is of a shard not leased.
	in9, out5 := inShard("p", 9, 0), inShard("p", 5, 0)
	f.insertOrders(newOrder("o1", t0.Add(time.Hour)), newOrder("o2", t0.Add(30*time.Minute)), newOrder("o3", t0.Add(10*time.Minute)),
		newOrder("o4", t0.Add(2*time.Hour)), newOrder(out5, t0.Add(3*time.Hour+30*time.Minute)), newOrder(in9, t0.Add(4*time.Hour)))
	f.setOrder("o2", order.Paid, t0)
	f.setOrder("o3", order.Closed, t0)
	shard9 := []storetype.Lease{{Shard: 9, Holder: "h", Token: 1}}
	// Neither c2 nor c3 is of shard 5: coupons are read in every shard.
	shard5 := []storetype.Lease{{Shard: 5, Holder: "h", Token: 1}}
	for _, tc := range []struct {
		kind storetype.TimerKind
		from time.Time
		ls   []storetype.Lease
		want time.Time
	}{
		{storetype.TimerExpire, t0, nil, t0.Add(25 * time.Hour)},
		{storetype.TimerExpire, t0.Add(25 * time.Hour), nil, t0.Add(25 * time.Hour)},
		{storetype.TimerExpire, t0.Add(26 * time.Hour), nil, time.Time{}},
		{storetype.TimerExpire, t0, shard5, t0.Add(25 * time.Hour)},
		{storetype.TimerRelease, t0, nil, t0.Add(time.Minute)},
		{storetype.TimerRelease, t0.Add(2 * time.Minute), nil, time.Time{}},
		{storetype.TimerRelease, t0, shard5, t0.Add(time.Minute)},
		{storetype.TimerClose, t0, nil, t0.Add(time.Hour)},
		{storetype.TimerClose, t0.Add(time.Hour), nil, t0.Add(time.Hour)},
		{storetype.TimerClose, t0.Add(time.Hour + time.Millisecond), nil, t0.Add(2 * time.Hour)},
		{storetype.TimerClose, t0.Add(3 * time.Hour), nil, t0.Add(3*time.Hour + 30*time.Minute)},
		{storetype.TimerClose, t0.Add(5 * time.Hour), nil, time.Time{}},
		{storetype.TimerClose, t0, shard9, t0.Add(4 * time.Hour)},
		{storetype.TimerClose, t0.Add(4*time.Hour + time.Millisecond), shard9, time.Time{}},
	} {
		got, err := f.d.Executor().PendingFrom(f.ctx, driver.PendingFromParams{Kind: tc.kind, From: tc.from, Leases: tc.ls})
		ok(f.t, "PendingFrom", err)
		wantTime(f.t, fmt.Sprintf("%s from %s, leases %v", tc.kind, tc.from, tc.ls), got, tc.want)
	}
}
