package drivertest

import (
	"reflect"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/credential"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/storetype"
)

// executorTests test that the driver's Executor and a transaction's are
// one executor: a read answers alike through either.
var executorTests = []test{{"PoolAndTx", testPoolAndTx}}

// testPoolAndTx: each read of rows that are there, live or archived,
// answers the same through the driver's Executor, outside a
// transaction, as inside one.
func testPoolAndTx(f *fixture) {
	f.insertTemplates(newTemplate("tp1", 10))
	f.insertCoupons(newCoupon("c1", "tp1", "u1", t0), newCoupon("c2", "tp1", "u1", t0))
	f.setCoupon("c2", coupon.Used, t0)
	f.insertOrders(newOrder("o1", t0.Add(time.Hour)), newOrder("o2", t0))
	f.setOrder("o2", order.Paid, t0)
	archive := driver.MoveParams{Before: t0, Now: later, Limit: 10}
	f.moveBatches("ArchiveCoupons", driver.Executor.ArchiveCoupons, archive, 1)
	f.moveBatches("ArchiveOrders", driver.Executor.ArchiveOrders, archive, 1)
	f.insertOperations(newOperation("op1", "h1", t0.Add(time.Hour)))
	f.putRequest("k1", t0)
	var reminder int64
	f.tx(func(tx driver.Executor) {
		ok(f.t, "TouchUser", tx.TouchUser(f.ctx, driver.TouchUserParams{ID: "u1", Now: t0}))
		_, err := tx.InsertToken(f.ctx, storetype.Token{Name: "a", Hash: "ha", Scopes: []credential.Scope{credential.Admin}, CreatedAt: t0})
		ok(f.t, "InsertToken", err)
		reminder, err = tx.InsertReminder(f.ctx, driver.PlannedReminder{UserID: "u1", Lead: time.Hour, First: t0, Last: t0, Due: t0})
		ok(f.t, "InsertReminder", err)
		ok(f.t, "PutStockBucket", tx.PutStockBucket(f.ctx, driver.PutStockBucketParams{SKU: "sku1",
			Bucket: driver.StockBucket{Bucket: 0, Buckets: 1, Available: 3, Stock: 3}, Now: t0}))
	})
	ctx := f.ctx
	reads := map[string]func(e driver.Executor) (any, error){
		"Template": func(e driver.Executor) (any, error) { return e.Template(ctx, "tp1") },
		"TemplateInfo": func(e driver.Executor) (any, error) {
			info, due, err := e.TemplateInfo(ctx, driver.TemplateInfoParams{ID: "tp1", Now: t0.Add(48 * time.Hour)})
			return []any{info, due}, err
		},
		"ClaimTemplate": func(e driver.Executor) (any, error) { return e.ClaimTemplate(ctx, "tp1") },
		"Coupon":        func(e driver.Executor) (any, error) { return e.Coupon(ctx, driver.CouponParams{ID: "c1"}) },
		"Coupon archived": func(e driver.Executor) (any, error) {
			return e.Coupon(ctx, driver.CouponParams{ID: "c2", Archived: true})
		},
		"HeldCounts": func(e driver.Executor) (any, error) {
			return e.HeldCounts(ctx, driver.HeldCountsParams{TemplateID: "tp1", Users: []string{"u1"}})
		},
		"Order": func(e driver.Executor) (any, error) { return e.Order(ctx, driver.OrderParams{ID: "o1"}) },
		"Order archived": func(e driver.Executor) (any, error) {
			return e.Order(ctx, driver.OrderParams{ID: "o2", Archived: true})
		},
		"StockBuckets": func(e driver.Executor) (any, error) { return e.StockBuckets(ctx, "sku1") },
		"User":         func(e driver.Executor) (any, error) { return e.User(ctx, "u1") },
		"Reminder":     func(e driver.Executor) (any, error) { return e.Reminder(ctx, reminder) },
		"Operation":    func(e driver.Executor) (any, error) { return e.Operation(ctx, "op1") },
		"Token":        func(e driver.Executor) (any, error) { return e.Token(ctx, "a") },
		"Request":      func(e driver.Executor) (any, error) { return e.Request(ctx, "k1") },
	}
	for name, read := range reads {
		pool, err := read(f.d.Executor())
		ok(f.t, "Executor "+name, err)
		var inTx any
		f.tx(func(tx driver.Executor) {
			inTx, err = read(tx)
			ok(f.t, "ExecutorTx "+name, err)
		})
		if !reflect.DeepEqual(pool, inTx) {
			f.t.Fatalf("%s: through the Executor %+v, in a transaction %+v", name, pool, inTx)
		}
	}
}
