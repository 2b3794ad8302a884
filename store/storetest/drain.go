package storetest

import (
	"fmt"
	"testing"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

var expireTests = []test{
	{"NeverEarly", testExpireNeverEarly},
	{"LimitOrderAndNext", testExpireLimit},
	{"StoresStateAndEvents", testExpireStores},
	{"LeavesOtherStates", testExpireLeavesOthers},
}

var releaseTests = []test{
	{"NeverEarly", testReleaseNeverEarly},
	{"ToUnusedOrExpired", testReleaseTo},
	{"LimitAndNext", testReleaseLimit},
	{"StaleLockIsLeft", testReleaseStale},
}

func (f *fixture) expireDue(now time.Time, limit int) store.Drained {
	f.t.Helper()
	return get(f, "ExpireDue", f.s.ExpireDue, storetype.DueParams{Now: now, Limit: limit})
}

func (f *fixture) releaseLocks(now time.Time, limit int) store.Drained {
	f.t.Helper()
	return get(f, "ReleaseLocks", f.s.ReleaseLocks, storetype.DueParams{Now: now, Limit: limit})
}

// wantDrained fails unless the drain d handed out the due times due and
// names next (zero for none) as the next still pending.
func (f *fixture) wantDrained(what string, d store.Drained, due []time.Time, next time.Time) {
	f.t.Helper()
	f.wantTimes(what+": due", d.Due, due)
	f.wantTime(what+": next", d.Next, next)
}

// drainBatch is what one drain of a batch hands out: its due times and
// the next still pending.
type drainBatch struct {
	due  []time.Time
	next time.Time
}

// wantBatches drains once a batch and fails unless each drain hands out
// its batch.
func (f *fixture) wantBatches(drain func() store.Drained, batches []drainBatch) {
	f.t.Helper()
	for i, b := range batches {
		f.wantDrained(fmt.Sprintf("batch %d", i), drain(), b.due, b.next)
	}
}

// wantNeverEarly drains with drain 1ms before due, which hands out
// nothing, names due next and leaves c and the outbox as they were, then
// at due, which hands out due and leaves c in state to.
func (f *fixture) wantNeverEarly(drain func(now time.Time, limit int) store.Drained, c coupon.Coupon, due time.Time, to coupon.State) {
	f.t.Helper()
	cursor := f.cursor()
	f.wantDrained("1ms early", drain(due.Add(-time.Millisecond), 100), nil, due)
	f.wantCoupon("1ms early", f.coupon(c.ID), c)
	f.wantNoneAfter("events 1ms early", cursor)
	f.wantDrained("at due", drain(due, 100), []time.Time{due}, time.Time{})
	f.wantStatus("at due", c.ID, to)
}

// claimDue claims a coupon of tp (duration only) that expires at due.
func (f *fixture) claimDue(tp coupon.Template, user string, due time.Time) coupon.Coupon {
	f.t.Helper()
	c := f.claim(tp.ID, user, due.Add(-tp.Duration))
	f.wantTime("claimDue expires_at", c.ExpiresAt, due)
	return c
}

// durationTemplate is claimable from long before t0; coupons live 1h.
func (f *fixture) durationTemplate() coupon.Template {
	f.t.Helper()
	return f.template(func(tp *coupon.Template) { tp.StartsAt = t0.Add(-30 * 24 * time.Hour); tp.Duration = time.Hour })
}

// testExpireNeverEarly: the boundary is expires_at <= now, to the millisecond.
func testExpireNeverEarly(t *testing.T, open opener) {
	f := newFixture(t, open)
	due := t0.Add(time.Millisecond)
	c := f.claimDue(f.durationTemplate(), "u1", due)
	f.wantNeverEarly(f.expireDue, c, due, coupon.Expired)
}

// testExpireLimit: batches take the oldest due first, at most Limit, and
// Next names the earliest still pending, due or not.
func testExpireLimit(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.durationTemplate()
	now := t0.Add(time.Hour)
	// Claimed in scrambled order so that claim order is not due order.
	dues := []time.Time{t0.Add(3 * time.Second), t0.Add(time.Second), t0.Add(5 * time.Second), t0.Add(2 * time.Second), t0.Add(4 * time.Second)}
	for i, due := range dues {
		f.claimDue(tp, fmt.Sprintf("u%d", i), due)
	}
	future := f.claimDue(tp, "later", now.Add(time.Minute))

	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	f.wantBatches(func() store.Drained { return f.expireDue(now, 2) }, []drainBatch{
		{[]time.Time{at(1), at(2)}, at(3)},
		{[]time.Time{at(3), at(4)}, at(5)},
		{[]time.Time{at(5)}, future.ExpiresAt},
		{nil, future.ExpiresAt},
	})
	d := f.expireDue(future.ExpiresAt, 2)
	f.wantDrained("last batch", d, []time.Time{future.ExpiresAt}, time.Time{})
}

// testExpireStores: what a drain stores, and that a second drain at the
// same now does nothing.
func testExpireStores(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.durationTemplate()
	a := f.claimDue(tp, "u1", t0.Add(-time.Minute))
	b := f.claimDue(tp, "u2", t0)
	c := f.claimDue(tp, "u3", t0.Add(time.Millisecond))
	cursor := f.cursor()
	now := t0

	d := f.expireDue(now, 100)
	f.wantDrained("drain", d, []time.Time{a.ExpiresAt, b.ExpiresAt}, c.ExpiresAt)
	for _, cp := range []coupon.Coupon{a, b} {
		want := cp
		want.Status, want.UpdatedAt, want.Version = coupon.Expired, now, cp.Version+1
		f.wantCoupon("stored after the drain", f.coupon(cp.ID), want)
		expired := ofSubject(f.eventsAfter(cursor), cp.ID)
		if len(expired) != 1 {
			t.Fatalf("events of %s: got %s, want one coupon.expired", cp.UserID, fmtEvents(expired))
		}
		f.wantEvent("expired event", expired[0], store.EventCouponExpired, cp, now,
			store.CouponEventData{From: coupon.Unused.String(), Reason: store.ReasonExpiry})
	}
	if got := f.coupon(c.ID); got.Status != coupon.Unused || got.Version != 1 {
		t.Fatalf("not yet due: got %s, want unused v1", fmtCoupon(got))
	}
	f.wantCounts("counts", f.counts(tp.ID, now), map[coupon.State]int64{coupon.Unused: 1, coupon.Expired: 2})

	before := f.snap(tp.ID, "u1", now)
	d = f.expireDue(now, 100)
	f.wantDrained("second drain", d, nil, c.ExpiresAt)
	f.unchanged("second drain", tp.ID, "u1", now, before)
}

// testExpireLeavesOthers: only unused coupons expire; a lock is the buffer
// between expiry and checkout.
func testExpireLeavesOthers(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.durationTemplate()
	due := t0
	locked := f.do(f.claimDue(tp, "u1", due).ID, lock("o1", due.Add(-time.Minute), time.Hour))
	used := f.do(f.claimDue(tp, "u2", due).ID, act(coupon.Redeem, "o2", due.Add(-time.Minute)))
	voided := f.do(f.claimDue(tp, "u3", due).ID, act(coupon.Void, "", due.Add(-time.Minute)))
	cursor := f.cursor()

	d := f.expireDue(due.Add(time.Minute), 100)
	f.wantDrained("drain", d, nil, time.Time{})
	for _, c := range []coupon.Coupon{locked, used, voided} {
		f.wantCoupon("after the drain", f.coupon(c.ID), c)
	}
	f.wantNoneAfter("events", cursor)
}

// testReleaseNeverEarly: a lock is released at locked_until, not before.
func testReleaseNeverEarly(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.durationTemplate()
	c := f.do(f.claimDue(tp, "u1", t0.Add(time.Hour)).ID, lock("o1", t0, 10*time.Minute))
	until := t0.Add(10 * time.Minute)
	f.wantTime("locked_until", c.LockedUntil, until)
	// An expiry drain does not touch a lock, even when the coupon is due.
	f.expireDue(t0.Add(2*time.Hour), 100)
	f.wantCoupon("after an expiry drain", f.coupon(c.ID), c)
	f.wantNeverEarly(f.releaseLocks, c, until, coupon.Unused)
}

// testReleaseTo: a released lock goes back to unused before expires_at and
// to expired at or after it, each with its event.
func testReleaseTo(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.durationTemplate()
	const ttl = 10 * time.Minute
	// back: expires at t0+1h, lock passes at t0+10m.
	back := f.do(f.claimDue(tp, "u1", t0.Add(time.Hour)).ID, lock("o1", t0, ttl))
	// gone: expires at t0+5m, lock passes at t0+10m.
	gone := f.do(f.claimDue(tp, "u2", t0.Add(5*time.Minute)).ID, lock("o2", t0, ttl))
	cursor := f.cursor()
	now := t0.Add(ttl)

	d := f.releaseLocks(now, 100)
	f.wantTimes("due", d.Due, []time.Time{back.LockedUntil, gone.LockedUntil})
	cases := []struct {
		c     coupon.Coupon
		to    coupon.State
		event string
	}{
		{back, coupon.Unused, store.EventCouponUnlocked},
		{gone, coupon.Expired, store.EventCouponExpired},
	}
	es := f.eventsAfter(cursor)
	if len(es) != len(cases) {
		t.Fatalf("events: got %s, want %d", fmtEvents(es), len(cases))
	}
	for _, c := range cases {
		want := c.c
		want.Status, want.OrderID, want.LockedUntil = c.to, "", time.Time{}
		want.UpdatedAt, want.Version = now, c.c.Version+1
		f.wantCoupon("released to "+c.to.String(), f.coupon(c.c.ID), want)
		mine := ofSubject(es, c.c.ID)
		if len(mine) != 1 {
			t.Fatalf("events of %s: got %s, want 1", c.c.UserID, fmtEvents(mine))
		}
		f.wantEvent("release to "+c.to.String(), mine[0], c.event, c.c, now,
			store.CouponEventData{From: coupon.Locked.String(), Reason: store.ReasonLockTTL, OrderID: c.c.OrderID})
	}
	f.wantCounts("counts", f.counts(tp.ID, now), map[coupon.State]int64{coupon.Unused: 1, coupon.Expired: 1})

	before := f.snap(tp.ID, "u1", now)
	d = f.releaseLocks(now, 100)
	f.wantTimes("second release due", d.Due, nil)
	f.unchanged("second release", tp.ID, "u1", now, before)
}

// testReleaseLimit: at most Limit locks a batch, earliest first; Next is
// the earliest lock still held.
func testReleaseLimit(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.durationTemplate()
	ttls := []time.Duration{3 * time.Minute, time.Minute, 2 * time.Minute, time.Hour}
	for i, ttl := range ttls {
		f.do(f.claimDue(tp, fmt.Sprintf("u%d", i), t0.Add(24*time.Hour)).ID, lock(fmt.Sprintf("o%d", i), t0, ttl))
	}
	m := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Minute) }
	now := m(10)
	f.wantBatches(func() store.Drained { return f.releaseLocks(now, 2) }, []drainBatch{
		{[]time.Time{m(1), m(2)}, m(3)},
		{[]time.Time{m(3)}, m(60)},
		{nil, m(60)},
	})
}

// testReleaseStale: a lock released and taken again by another order is
// not released on the first lock's time.
func testReleaseStale(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.durationTemplate()
	c := f.claimDue(tp, "u1", t0.Add(24*time.Hour))
	f.do(c.ID, lock("o1", t0, 10*time.Minute))
	f.do(c.ID, act(coupon.Unlock, "o1", t0.Add(time.Minute)))
	c = f.do(c.ID, lock("o2", t0.Add(2*time.Minute), time.Hour))
	d := f.releaseLocks(t0.Add(10*time.Minute), 100)
	f.wantDrained("drain", d, nil, c.LockedUntil)
	f.wantCoupon("after the release", f.coupon(c.ID), c)
}
