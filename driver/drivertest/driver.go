package drivertest

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/storetype"
)

// driverTests test the driver's reads of itself and its gauges.
var driverTests = []test{
	{"ClockReady", testClockReady},
	{"Rollback", testRollback},
	{"Classify", testClassify},
	{"Stats", testStats},
	{"Forecast", testForecast},
}

// testClockReady: a migrated, idle database is ready and not busy, and
// its clock reads the time of day.
func testClockReady(f *fixture) {
	ok(f.t, "Ready", f.d.Ready(f.ctx))
	want(f.t, "Busy", f.d.Busy(), false)
	now, err := f.d.Executor().Clock(f.ctx)
	ok(f.t, "Clock", err)
	if d := time.Since(now); d < -time.Minute || d > time.Minute {
		f.t.Fatalf("Clock: %s, %s from the time of day", now, d)
	}
}

// testRollback: a transaction rolled back, foreground or background,
// leaves nothing; Rollback after Commit changes nothing.
func testRollback(f *fixture) {
	for i, background := range []bool{false, true} {
		tx, err := f.d.Begin(f.ctx, background)
		ok(f.t, "Begin", err)
		ok(f.t, "InsertTemplate", tx.InsertTemplate(f.ctx, newTemplate(fmt.Sprint("tp", i), 0)))
		tx.Rollback()
		tx.Rollback()
	}
	tx, err := f.d.Begin(f.ctx, true)
	ok(f.t, "Begin", err)
	ok(f.t, "InsertTemplate", tx.InsertTemplate(f.ctx, newTemplate("kept", 0)))
	_, err = tx.Commit(f.ctx, nil)
	ok(f.t, "Commit", err)
	tx.Rollback()
	got, err := f.d.Executor().Templates(f.ctx, storetype.TemplatesParams{Limit: 10})
	ok(f.t, "Templates", err)
	wantIDs(f.t, "Templates", got, templateID, "kept")
}

// testClassify: the errors a transaction returns as they are, not worth
// a retry.
func testClassify(f *fixture) {
	for _, err := range []error{storetype.ErrNotFound, driver.ErrRequestTaken, coupon.ErrSoldOut, errors.New("other")} {
		out, retry := f.d.Classify(err)
		want(f.t, "Classify "+err.Error(), errors.Is(out, err), true)
		want(f.t, "Classify retry "+err.Error(), retry, false)
	}
}

// testStats: the due backlog at the now passed counts unused coupons
// past expires_at, locked ones past locked_until and unpaid orders past
// their deadline; OpenOrders counts unpaid orders.
func testStats(f *fixture) {
	f.insertTemplates(newTemplate("tp1", 0))
	f.insertCoupons(newCoupon("c1", "tp1", "u1", t0), newCoupon("c2", "tp1", "u1", t0), newCoupon("c3", "tp1", "u1", t0.Add(time.Hour)))
	f.lock("c2", t0.Add(90*time.Minute))
	f.insertOrders(newOrder("o1", t0.Add(time.Hour)), newOrder("o2", t0.Add(30*time.Hour)), newOrder("o3", t0))
	f.setOrder("o3", order.Paid, t0)
	for _, tc := range []struct {
		now     time.Time
		backlog int64
	}{{t0, 0}, {t0.Add(2 * time.Hour), 2}, {t0.Add(24*time.Hour + 30*time.Minute), 3}, {t0.Add(31 * time.Hour), 5}} {
		st, err := f.d.Executor().Stats(f.ctx, tc.now)
		ok(f.t, "Stats", err)
		want(f.t, "DueBacklog at "+tc.now.String(), st.DueBacklog, tc.backlog)
		want(f.t, "OpenOrders", st.OpenOrders, 2)
	}
}

// testForecast: the due items of each kind in each bucket of the range,
// empty buckets left out; of one template, its coupons' expiries and
// releases only.
func testForecast(f *fixture) {
	f.insertTemplates(newTemplate("tp1", 0), newTemplate("tp2", 0))
	f.insertCoupons(newCoupon("c1", "tp1", "u1", t0), newCoupon("c2", "tp1", "u1", t0.Add(90*time.Minute)),
		newCoupon("c3", "tp1", "u1", t0.Add(100*time.Minute)), newCoupon("c4", "tp1", "u1", t0.Add(9*time.Hour)),
		newCoupon("c5", "tp1", "u1", t0), newCoupon("c6", "tp2", "u1", t0.Add(100*time.Minute)),
		newCoupon("c7", "tp2", "u1", t0))
	f.lock("c5", t0.Add(24*time.Hour+30*time.Minute))
	f.lock("c7", t0.Add(25*time.Hour))
	f.insertOrders(newOrder("o1", t0.Add(26*time.Hour)))
	for _, tc := range []struct {
		template string
		want     []storetype.DueCount
	}{
		{"", []storetype.DueCount{
			{Kind: storetype.TimerExpire, Bucket: 0, N: 1}, {Kind: storetype.TimerExpire, Bucket: 1, N: 3},
			{Kind: storetype.TimerRelease, Bucket: 0, N: 1}, {Kind: storetype.TimerRelease, Bucket: 1, N: 1},
			{Kind: storetype.TimerClose, Bucket: 2, N: 1},
		}},
		{"tp1", []storetype.DueCount{
			{Kind: storetype.TimerExpire, Bucket: 0, N: 1}, {Kind: storetype.TimerExpire, Bucket: 1, N: 2},
			{Kind: storetype.TimerRelease, Bucket: 0, N: 1},
		}},
		{"tp2", []storetype.DueCount{{Kind: storetype.TimerExpire, Bucket: 1, N: 1}, {Kind: storetype.TimerRelease, Bucket: 1, N: 1}}},
		{"tp3", nil},
	} {
		p := storetype.ForecastParams{From: t0.Add(24 * time.Hour), Width: time.Hour, Buckets: 3, TemplateID: tc.template}
		got, err := f.d.Executor().Forecast(f.ctx, p)
		ok(f.t, "Forecast", err)
		slices.SortFunc(got, byKindBucket)
		slices.SortFunc(tc.want, byKindBucket)
		if !slices.Equal(got, tc.want) {
			f.t.Fatalf("Forecast of template %q: got %+v, want %+v", tc.template, got, tc.want)
		}
	}
}

// byKindBucket orders due counts by kind, then bucket.
func byKindBucket(a, b storetype.DueCount) int {
	if c := strings.Compare(string(a.Kind), string(b.Kind)); c != 0 {
		return c
	}
	return cmp.Compare(a.Bucket, b.Bucket)
}
