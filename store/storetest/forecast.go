package storetest

import (
	"reflect"
	"testing"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/storetype"
)

var forecastTests = []test{
	{"ByMinuteAndKind", testForecast},
	{"NoBucket", testForecastNoBucket},
}

// forecastOf counts p's forecast by kind and bucket.
func (f *fixture) forecastOf(p storetype.ForecastParams) map[storetype.TimerKind]map[int64]int64 {
	f.t.Helper()
	got, err := f.s.Forecast(f.ctx, p)
	if err != nil {
		f.t.Fatalf("Forecast(%+v): %v", p, err)
	}
	out := map[storetype.TimerKind]map[int64]int64{}
	for _, c := range got {
		if out[c.Kind] == nil {
			out[c.Kind] = map[int64]int64{}
		}
		if _, dup := out[c.Kind][c.Bucket]; dup || c.N <= 0 {
			f.t.Fatalf("Forecast: %s bucket %d twice or empty: %+v", c.Kind, c.Bucket, got)
		}
		out[c.Kind][c.Bucket] = c.N
	}
	return out
}

// testForecast: unused coupons count in the minute of their expires_at,
// locks in that of their locked_until, unpaid orders in that of their
// deadline; a bucket holds its start and not its end, to the millisecond;
// what is used, expired or outside the range counts nowhere.
func testForecast(t *testing.T, open opener) {
	f := newOrderFixture(t, open)
	tp := f.durationTemplate()
	minute := func(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }
	f.claimDue(tp, "a", minute(10))
	f.claimDue(tp, "b", minute(11).Add(-time.Millisecond))
	f.claimDue(tp, "c", minute(11))
	f.claimDue(tp, "before", t0.Add(-time.Millisecond))
	f.claimDue(tp, "after", minute(60))
	f.do(f.claimDue(tp, "used", minute(12)).ID, act(coupon.Redeem, "o2", minute(11)))
	f.do(f.claimDue(tp, "voided", minute(12)).ID, act(coupon.Void, "", minute(11)))
	locked := f.claim(f.tpl.ID, buyer, t0.Add(-time.Hour)) // expires at t0+23h
	o := f.create(locked.ID)                               // deadline t0+30m
	lockedUntil := f.coupon(locked.ID).LockedUntil

	p := storetype.ForecastParams{From: t0, Width: time.Minute, Buckets: 60}
	want := map[storetype.TimerKind]map[int64]int64{
		storetype.TimerExpire: {10: 2, 11: 1},
		storetype.TimerClose:  {int64(o.Deadline.Sub(t0) / time.Minute): 1},
	}
	if lockedUntil.Before(p.End()) {
		want[storetype.TimerRelease] = map[int64]int64{int64(lockedUntil.Sub(t0) / time.Minute): 1}
	}
	got := f.forecastOf(p)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Forecast by minute from t0 for an hour: got %v, want %v", got, want)
	}
}

// testForecastNoBucket: a forecast of no bucket, or of buckets under a
// millisecond, is an error.
func testForecastNoBucket(t *testing.T, open opener) {
	f := newFixture(t, open)
	for _, p := range []storetype.ForecastParams{{From: t0, Width: time.Minute}, {From: t0, Width: time.Microsecond, Buckets: 10}} {
		if _, err := f.s.Forecast(f.ctx, p); err == nil {
			t.Fatalf("Forecast(%+v): no error", p)
		}
	}
}
