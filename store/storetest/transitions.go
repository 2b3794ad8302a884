package storetest

import (
	"testing"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

var transitionTests = []test{
	{"Actions", testTransitionActions},
	{"Refusals", testTransitionRefusals},
	{"UnknownCoupon", testTransitionUnknown},
	{"VersionCounts", testTransitionVersions},
}

// exp is when a coupon of the default template claimed at t0 expires.
var exp = t0.Add(24 * time.Hour)

// claimThrough claims a coupon of the default template for user at t0,
// expiring at exp, and moves it through steps; it returns the template and
// the coupon after the last step.
func (f *fixture) claimThrough(user string, steps []store.TransitionParams) (coupon.Template, coupon.Coupon) {
	f.t.Helper()
	tp := f.template(nil)
	c := f.claim(tp.ID, user, t0)
	f.wantTime("claimed expires_at", c.ExpiresAt, exp)
	for _, p := range steps {
		c = f.do(c.ID, p)
	}
	return tp, c
}

// testTransitionActions runs every allowed row of the table through the
// store: the coupon moves, reads back as returned, and exactly one event
// records the move.
func testTransitionActions(t *testing.T, open opener) {
	const ttl = 15 * time.Minute
	h := time.Hour
	cases := []struct {
		name      string
		setup     []store.TransitionParams
		p         store.TransitionParams
		to        coupon.State
		order     string    // coupon's order_id after
		until     time.Time // coupon's locked_until after
		event     string
		from      coupon.State
		reason    string
		evOrderID string
	}{
		{name: "lock",
			p:  lock("o1", t0.Add(h), ttl),
			to: coupon.Locked, order: "o1", until: t0.Add(h + ttl),
			event: store.EventCouponLocked, from: coupon.Unused, reason: "checkout", evOrderID: "o1"},
		{name: "lock 1ms before expires_at",
			p:  lock("o1", exp.Add(-time.Millisecond), ttl),
			to: coupon.Locked, order: "o1", until: exp.Add(ttl - time.Millisecond),
			event: store.EventCouponLocked, from: coupon.Unused, reason: "checkout", evOrderID: "o1"},
		{name: "redeem locked",
			setup: []store.TransitionParams{lock("o1", t0.Add(h), ttl)},
			p:     act(coupon.Redeem, "o1", t0.Add(h+time.Minute)),
			to:    coupon.Used, order: "o1",
			event: store.EventCouponRedeemed, from: coupon.Locked, reason: "suite-redeem", evOrderID: "o1"},
		{name: "redeem unused",
			p:  act(coupon.Redeem, "o1", t0.Add(h)),
			to: coupon.Used, order: "o1",
			event: store.EventCouponRedeemed, from: coupon.Unused, reason: "suite-redeem", evOrderID: "o1"},
		{name: "lock taken in time is honoured after expires_at",
			setup: []store.TransitionParams{lock("o1", exp.Add(-time.Millisecond), ttl)},
			p:     act(coupon.Redeem, "o1", exp.Add(5*time.Minute)),
			to:    coupon.Used, order: "o1",
			event: store.EventCouponRedeemed, from: coupon.Locked, reason: "suite-redeem", evOrderID: "o1"},
		{name: "unlock before expires_at",
			setup: []store.TransitionParams{lock("o1", t0.Add(h), ttl)},
			p:     act(coupon.Unlock, "o1", t0.Add(h+time.Minute)),
			to:    coupon.Unused,
			event: store.EventCouponUnlocked, from: coupon.Locked, reason: "suite-unlock", evOrderID: "o1"},
		{name: "unlock at expires_at",
			setup: []store.TransitionParams{lock("o1", exp.Add(-time.Minute), ttl)},
			p:     act(coupon.Unlock, "o1", exp),
			to:    coupon.Expired,
			event: store.EventCouponExpired, from: coupon.Locked, reason: "suite-unlock", evOrderID: "o1"},
		{name: "unlock after expires_at",
			setup: []store.TransitionParams{lock("o1", exp.Add(-time.Minute), ttl)},
			p:     act(coupon.Unlock, "o1", exp.Add(time.Minute)),
			to:    coupon.Expired,
			event: store.EventCouponExpired, from: coupon.Locked, reason: "suite-unlock", evOrderID: "o1"},
		{name: "release once the lock TTL passed",
			setup: []store.TransitionParams{lock("o1", t0.Add(h), ttl)},
			p:     store.TransitionParams{Action: coupon.Release, Reason: store.ReasonLockTTL, Now: t0.Add(h + ttl)},
			to:    coupon.Unused,
			event: store.EventCouponUnlocked, from: coupon.Locked, reason: store.ReasonLockTTL, evOrderID: "o1"},
		{name: "relock by another order after unlock",
			setup: []store.TransitionParams{lock("o1", t0.Add(h), ttl), act(coupon.Unlock, "o1", t0.Add(h+time.Minute))},
			p:     lock("o2", t0.Add(2*h), ttl),
			to:    coupon.Locked, order: "o2", until: t0.Add(2*h + ttl),
			event: store.EventCouponLocked, from: coupon.Unused, reason: "checkout", evOrderID: "o2"},
		{name: "refund before expires_at",
			setup: []store.TransitionParams{act(coupon.Redeem, "o1", t0.Add(h))},
			p:     act(coupon.Refund, "o1", t0.Add(2*h)),
			to:    coupon.Unused,
			event: store.EventCouponRefunded, from: coupon.Used, reason: "suite-refund", evOrderID: "o1"},
		{name: "refund at expires_at",
			setup: []store.TransitionParams{act(coupon.Redeem, "o1", t0.Add(h))},
			p:     act(coupon.Refund, "o1", exp),
			to:    coupon.Expired,
			event: store.EventCouponExpired, from: coupon.Used, reason: "suite-refund", evOrderID: "o1"},
		{name: "refund after expires_at",
			setup: []store.TransitionParams{act(coupon.Redeem, "o1", t0.Add(h))},
			p:     act(coupon.Refund, "o1", exp.Add(48*h)),
			to:    coupon.Expired,
			event: store.EventCouponExpired, from: coupon.Used, reason: "suite-refund", evOrderID: "o1"},
		{name: "void",
			p:     store.TransitionParams{Action: coupon.Void, Reason: "fraud", Now: t0.Add(h)},
			to:    coupon.Voided,
			event: store.EventCouponVoided, from: coupon.Unused, reason: "fraud"},
		{name: "expire at expires_at",
			p:     store.TransitionParams{Action: coupon.Expire, Reason: store.ReasonExpiry, Now: exp},
			to:    coupon.Expired,
			event: store.EventCouponExpired, from: coupon.Unused, reason: store.ReasonExpiry},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t, open)
			_, cp := f.claimThrough("u-"+c.name, c.setup)
			cursor := f.cursor()
			got := f.do(cp.ID, c.p)
			want := cp
			want.Status, want.OrderID, want.LockedUntil = c.to, c.order, c.until
			want.UpdatedAt, want.Version = c.p.Now, cp.Version+1
			f.wantCoupon("returned", got, want)
			f.wantCoupon("read back", f.coupon(cp.ID), want)
			es := f.eventsAfter(cursor)
			if len(es) != 1 {
				t.Fatalf("events written: got %d, want 1: %s", len(es), fmtEvents(es))
			}
			f.wantEvent("event", es[0], c.event, cp, c.p.Now,
				store.CouponEventData{From: c.from.String(), Reason: c.reason, OrderID: c.evOrderID})
		})
	}
}

// testTransitionRefusals asks for every kind of refused move and checks it
// changes nothing: not the coupon, not the counts, not the outbox, not the
// timers.
func testTransitionRefusals(t *testing.T, open opener) {
	const ttl = 15 * time.Minute
	h := time.Hour
	cases := []struct {
		name  string
		setup []store.TransitionParams
		p     store.TransitionParams
		want  error
	}{
		{"lock at expires_at", nil, lock("o1", exp, ttl), coupon.ErrExpired},
		{"lock after expires_at", nil, lock("o1", exp.Add(h), ttl), coupon.ErrExpired},
		{"redeem unused at expires_at", nil, act(coupon.Redeem, "o1", exp), coupon.ErrExpired},
		{"void at expires_at", nil, act(coupon.Void, "", exp), coupon.ErrExpired},
		{"lock a stored expired coupon",
			[]store.TransitionParams{act(coupon.Expire, "", exp)}, lock("o1", exp.Add(h), ttl), coupon.ErrExpired},
		{"lock a coupon locked by another order",
			[]store.TransitionParams{lock("o1", t0.Add(h), ttl)}, lock("o2", t0.Add(h+time.Minute), ttl), coupon.ErrInvalidState},
		{"lock a coupon locked by the same order",
			[]store.TransitionParams{lock("o1", t0.Add(h), ttl)}, lock("o1", t0.Add(h+time.Minute), ttl), coupon.ErrInvalidState},
		{"redeem by another order",
			[]store.TransitionParams{lock("o1", t0.Add(h), ttl)}, act(coupon.Redeem, "o2", t0.Add(h+time.Minute)), coupon.ErrInvalidState},
		{"redeem by another order after expires_at",
			[]store.TransitionParams{lock("o1", exp.Add(-time.Minute), ttl)}, act(coupon.Redeem, "o2", exp.Add(time.Minute)), coupon.ErrInvalidState},
		{"unlock by another order",
			[]store.TransitionParams{lock("o1", t0.Add(h), ttl)}, act(coupon.Unlock, "o2", t0.Add(h+time.Minute)), coupon.ErrInvalidState},
		{"unlock unused", nil, act(coupon.Unlock, "o1", t0.Add(h)), coupon.ErrInvalidState},
		{"refund by another order",
			[]store.TransitionParams{act(coupon.Redeem, "o1", t0.Add(h))}, act(coupon.Refund, "o2", t0.Add(2*h)), coupon.ErrInvalidState},
		{"refund unused", nil, act(coupon.Refund, "o1", t0.Add(h)), coupon.ErrInvalidState},
		{"redeem used",
			[]store.TransitionParams{act(coupon.Redeem, "o1", t0.Add(h))}, act(coupon.Redeem, "o1", t0.Add(2*h)), coupon.ErrInvalidState},
		{"void locked",
			[]store.TransitionParams{lock("o1", t0.Add(h), ttl)}, act(coupon.Void, "", t0.Add(h+time.Minute)), coupon.ErrInvalidState},
		{"void used",
			[]store.TransitionParams{act(coupon.Redeem, "o1", t0.Add(h))}, act(coupon.Void, "", t0.Add(2*h)), coupon.ErrInvalidState},
		{"lock voided",
			[]store.TransitionParams{act(coupon.Void, "", t0.Add(h))}, lock("o1", t0.Add(2*h), ttl), coupon.ErrInvalidState},
		{"expire locked after expires_at",
			[]store.TransitionParams{lock("o1", exp.Add(-time.Minute), ttl)}, act(coupon.Expire, "", exp.Add(time.Minute)), coupon.ErrInvalidState},
		{"expire before expires_at", nil, act(coupon.Expire, "", exp.Add(-time.Millisecond)), coupon.ErrNotDue},
		{"release before locked_until",
			[]store.TransitionParams{lock("o1", t0.Add(h), ttl)}, act(coupon.Release, "", t0.Add(h+ttl-time.Millisecond)), coupon.ErrNotDue},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t, open)
			user := "u-" + c.name
			tp, cp := f.claimThrough(user, c.setup)
			before := f.snap(tp.ID, user, c.p.Now)
			p := c.p
			p.CouponID = cp.ID
			_, err := f.s.Transition(f.ctx, p)
			f.wantErr(c.name, err, c.want)
			f.wantCoupon("read back after the refusal", f.coupon(cp.ID), cp)
			f.unchanged("refused "+c.p.Action.String(), tp.ID, user, c.p.Now, before)
		})
	}
}

func testTransitionUnknown(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(nil)
	f.claim(tp.ID, "u1", t0)
	before := f.snap(tp.ID, "u1", t0)
	for _, a := range coupon.Actions {
		p := act(a, "o1", t0.Add(time.Hour))
		p.CouponID, p.LockTTL = "cpn_nosuchcoupon", time.Minute
		_, err := f.s.Transition(f.ctx, p)
		f.wantErr("Transition "+a.String()+" of an unknown coupon", err, storetype.ErrNotFound)
	}
	_, err := f.s.Coupon(f.ctx, "cpn_nosuchcoupon")
	f.wantErr("Coupon(unknown)", err, storetype.ErrNotFound)
	f.unchanged("unknown coupon", tp.ID, "u1", t0, before)
}

// testTransitionVersions checks that a coupon's version counts its
// transitions, through a round trip of lock, unlock, redeem and refund.
func testTransitionVersions(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(nil)
	c := f.claim(tp.ID, "u1", t0)
	steps := []store.TransitionParams{
		lock("o1", t0.Add(time.Minute), time.Minute),
		act(coupon.Unlock, "o1", t0.Add(90*time.Second)),
		lock("o2", t0.Add(2*time.Minute), time.Minute),
		act(coupon.Redeem, "o2", t0.Add(150*time.Second)),
		act(coupon.Refund, "o2", t0.Add(time.Hour)),
	}
	for i, p := range steps {
		c = f.do(c.ID, p)
		if want := int64(i + 2); c.Version != want {
			t.Fatalf("after %s: version %d, want %d", p.Action, c.Version, want)
		}
	}
	if got := f.coupon(c.ID); got.Status != coupon.Unused || got.Version != 6 {
		t.Fatalf("after the round trip: got %s, want unused v6", fmtCoupon(got))
	}
	if es := f.eventsOf(c.ID); len(es) != 6 {
		t.Fatalf("events of the coupon: got %d, want 6: %s", len(es), fmtEvents(es))
	}
}
