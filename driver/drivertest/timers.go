package drivertest

import (
	"time"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/storetype"
)

// timerTests test the group timer rows: one per kind and bucket, read by
// due time, deleted once their bucket is through.
var timerTests = []test{
	{"InsertRead", testTimers},
	{"Delete", testDeleteTimers},
}

// timers reads the timers due at or before before.
func (f *fixture) timers(before time.Time, limit int) []storetype.Timer {
	f.t.Helper()
	got, err := f.d.Executor().Timers(f.ctx, storetype.TimersParams{Before: before, Limit: limit})
	ok(f.t, "Timers", err)
	return got
}

// wantTimers fails unless got are want, in order.
func (f *fixture) wantTimers(what string, got []storetype.Timer, want ...storetype.Timer) {
	f.t.Helper()
	if len(got) != len(want) {
		f.t.Fatalf("%s: got %v, want %v", what, got, want)
	}
	for i := range got {
		if got[i].Kind != want[i].Kind || !got[i].Due.Equal(want[i].Due) {
			f.t.Fatalf("%s: got %v, want %v", what, got, want)
		}
	}
}

// testTimers: PutTimer stores a timer once however often it is put,
// Timers reads them due first up to Limit, HasTimer finds one.
func testTimers(f *fixture) {
	expire := storetype.Timer{Kind: storetype.TimerExpire, Due: t0.Add(2 * time.Second)}
	release := storetype.Timer{Kind: storetype.TimerRelease, Due: t0.Add(time.Second)}
	f.tx(func(tx driver.Executor) {
		for _, tm := range []storetype.Timer{expire, expire, release} {
			ok(f.t, "PutTimer", tx.PutTimer(f.ctx, tm))
		}
	})
	f.wantTimers("all", f.timers(t0.Add(time.Hour), 10), release, expire)
	f.wantTimers("limit", f.timers(t0.Add(time.Hour), 1), release)
	f.wantTimers("before", f.timers(t0.Add(time.Second), 10), release)
	for _, tc := range []struct {
		tm  storetype.Timer
		has bool
	}{{expire, true}, {release, true}, {storetype.Timer{Kind: storetype.TimerRelease, Due: expire.Due}, false}} {
		has, err := f.d.Executor().HasTimer(f.ctx, tc.tm)
		ok(f.t, "HasTimer", err)
		want(f.t, "HasTimer", has, tc.has)
	}
}

// testDeleteTimers: DeleteTimers removes the timers of its kind whose
// whole bucket lies at or before through.
func testDeleteTimers(f *fixture) {
	f.tx(func(tx driver.Executor) {
		for _, s := range []time.Duration{0, time.Second, 2 * time.Second} {
			ok(f.t, "PutTimer", tx.PutTimer(f.ctx, storetype.Timer{Kind: storetype.TimerExpire, Due: t0.Add(s)}))
		}
		ok(f.t, "PutTimer", tx.PutTimer(f.ctx, storetype.Timer{Kind: storetype.TimerRelease, Due: t0}))
	})
	f.tx(func(tx driver.Executor) {
		ok(f.t, "DeleteTimers", tx.DeleteTimers(f.ctx, driver.DeleteTimersParams{Kind: storetype.TimerExpire, Through: t0.Add(1500 * time.Millisecond)}))
	})
	f.wantTimers("after delete", f.timers(t0.Add(time.Hour), 10),
		storetype.Timer{Kind: storetype.TimerRelease, Due: t0}, storetype.Timer{Kind: storetype.TimerExpire, Due: t0.Add(time.Second)},
		storetype.Timer{Kind: storetype.TimerExpire, Due: t0.Add(2 * time.Second)})
}
