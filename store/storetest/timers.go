package storetest

import (
	"fmt"
	"testing"
	"time"

	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

var timerTests = []test{
	{"ClaimAndLockWriteTimers", testTimersWritten},
	{"DueOrderAndLimit", testTimersDue},
	{"GroupTimer", testTimersGroup},
	{"Delete", testTimersDelete},
	{"Empty", testTimersEmpty},
}

func (f *fixture) timersBefore(before time.Time, limit int) []storetype.Timer {
	f.t.Helper()
	return get(f, "Timers", f.s.Timers, storetype.TimersParams{Before: before, Limit: limit})
}

// testTimersWritten: a claim writes an expiry timer at its expires_at's
// bucket, a lock a release timer at its locked_until's bucket.
func testTimersWritten(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.durationTemplate() // 1h
	c := f.claim(tp.ID, "u1", t0.Add(250*time.Millisecond))
	expBucket := t0.Add(time.Hour)
	f.wantTime("BucketOf(expires_at)", storetype.BucketOf(c.ExpiresAt), expBucket)
	f.wantTimers("after the claim", f.timers(), []storetype.Timer{{Kind: storetype.TimerExpire, Due: expBucket}})

	c = f.do(c.ID, lock("o1", t0.Add(1700*time.Millisecond), 15*time.Minute))
	relBucket := t0.Add(15*time.Minute + time.Second)
	f.wantTime("BucketOf(locked_until)", storetype.BucketOf(c.LockedUntil), relBucket)
	ts := f.timers()
	if len(ts) != 2 || !hasTimer(ts, storetype.TimerExpire, expBucket) || !hasTimer(ts, storetype.TimerRelease, relBucket) {
		t.Fatalf("after the lock: got %s, want %s@%s and %s@%s", fmtTimers(ts),
			storetype.TimerExpire, fmtTime(expBucket), storetype.TimerRelease, fmtTime(relBucket))
	}
}

// testTimersDue: Timers returns what is due by Before (inclusive), earliest
// first, at most Limit.
func testTimersDue(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.durationTemplate()
	b := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	// Claimed out of due order; expiries at b(3)+400ms, b(1)+900ms, b(2).
	for i, due := range []time.Time{b(3).Add(400 * time.Millisecond), b(1).Add(900 * time.Millisecond), b(2)} {
		f.claimDue(tp, fmt.Sprintf("u%d", i), due)
	}
	all := []storetype.Timer{{Kind: storetype.TimerExpire, Due: b(1)}, {Kind: storetype.TimerExpire, Due: b(2)}, {Kind: storetype.TimerExpire, Due: b(3)}}
	cases := []struct {
		before time.Time
		limit  int
		want   []storetype.Timer
	}{
		{b(1).Add(-time.Millisecond), 10, nil},
		{b(1), 10, all[:1]},
		{b(2).Add(-time.Millisecond), 10, all[:1]},
		{b(2), 10, all[:2]},
		{b(3), 10, all},
		{farFuture, 10, all},
		{farFuture, 2, all[:2]},
		{farFuture, 1, all[:1]},
	}
	for _, c := range cases {
		f.wantTimers(fmt.Sprintf("Timers(%s, %d)", fmtTime(c.before), c.limit), f.timersBefore(c.before, c.limit), c.want)
	}
}

// testTimersGroup: many coupons due within one second share one timer.
func testTimersGroup(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.durationTemplate()
	const n = 50
	for i := range n {
		f.claim(tp.ID, fmt.Sprintf("u%d", i), t0.Add(time.Duration(i)*19*time.Millisecond))
	}
	f.wantTimers("after claims in one second", f.timers(), []storetype.Timer{{Kind: storetype.TimerExpire, Due: t0.Add(time.Hour)}})
	f.claim(tp.ID, "next-second", t0.Add(time.Second))
	f.wantTimers("after a claim in the next second", f.timers(), []storetype.Timer{
		{Kind: storetype.TimerExpire, Due: t0.Add(time.Hour)}, {Kind: storetype.TimerExpire, Due: t0.Add(time.Hour + time.Second)},
	})
}

// testTimersDelete: DeleteTimers removes the timers of one kind whose whole
// bucket lies at or before Through, and nothing else.
func testTimersDelete(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.durationTemplate()
	b1, b2 := t0.Add(time.Hour), t0.Add(time.Hour+5*time.Second)
	f.claimDue(tp, "u1", b1.Add(300*time.Millisecond))
	f.claimDue(tp, "u2", b2)
	// A release timer in the same bucket as the first expiry timer.
	c := f.claimDue(tp, "u3", b1.Add(30*time.Minute))
	f.do(c.ID, lock("o3", b1.Add(-10*time.Minute), 10*time.Minute+500*time.Millisecond))
	start := []storetype.Timer{
		{Kind: storetype.TimerExpire, Due: b1}, {Kind: storetype.TimerRelease, Due: b1},
		{Kind: storetype.TimerExpire, Due: b2}, {Kind: storetype.TimerExpire, Due: b1.Add(30 * time.Minute)},
	}
	f.wantTimers("before deleting", sortTimers(f.timers()), sortTimers(start))

	del := func(kind storetype.TimerKind, through time.Time) {
		t.Helper()
		if err := f.s.DeleteTimers(f.ctx, store.DeleteTimersParams{Kind: kind, Through: through}); err != nil {
			t.Fatalf("DeleteTimers(%s, %s): %v", kind, fmtTime(through), err)
		}
	}
	// b1's bucket ends at b1+1s: through 1ms earlier it is still open.
	del(storetype.TimerExpire, b1.Add(time.Second-time.Millisecond))
	f.wantTimers("bucket not yet ended", sortTimers(f.timers()), sortTimers(start))

	del(storetype.TimerExpire, b1.Add(time.Second))
	f.wantTimers("expire through b1's end", sortTimers(f.timers()), sortTimers(start[1:]))

	del(storetype.TimerRelease, b2.Add(time.Second))
	f.wantTimers("release through b2's end", sortTimers(f.timers()), sortTimers(start[2:]))

	del(storetype.TimerExpire, farFuture)
	f.wantTimers("expire through the far future", f.timers(), nil)
}

func testTimersEmpty(t *testing.T, open opener) {
	f := newFixture(t, open)
	f.wantTimers("fresh store", f.timers(), nil)
	if err := f.s.DeleteTimers(f.ctx, store.DeleteTimersParams{Kind: storetype.TimerExpire, Through: farFuture}); err != nil {
		t.Fatalf("DeleteTimers on a fresh store: %v", err)
	}
}
