package storetest

import (
	"testing"
	"time"

	"github.com/lapsehq/lapse/coupon"
)

var walletTests = []test{
	{"LazyCheckAndFilter", testWalletFilter},
	{"UnknownUser", testWalletUnknownUser},
}

// testWalletFilter: a user's wallet lists only their coupons, as the lazy
// check reads them, and filters on the state read.
func testWalletFilter(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.durationTemplate() // coupons live 1h
	other := f.template(nil)   // coupons live 24h
	now := t0.Add(2 * time.Hour)
	// fresh: unused until t0+24h. stale: unused, past its t0+1h, so it
	// reads expired. held: locked. spent: used.
	fresh := f.claim(other.ID, "u1", t0)
	stale := f.claim(tp.ID, "u1", t0)
	held := f.do(f.claim(other.ID, "u1", t0).ID, lock("o1", t0.Add(time.Hour), time.Hour))
	spent := f.do(f.claim(tp.ID, "u1", t0).ID, act(coupon.Redeem, "o2", t0.Add(time.Minute)))
	f.claim(tp.ID, "u2", t0)
	f.claim(other.ID, "u2", t0)

	all := f.userCoupons("u1", 0, now)
	f.wantIDs("all of u1's", all, fresh.ID, stale.ID, held.ID, spent.ID)
	for _, c := range all {
		if c.UserID != "u1" {
			t.Fatalf("u1's wallet holds %s", fmtCoupon(c))
		}
		if c.ID == stale.ID && c.Status != coupon.Expired {
			t.Fatalf("unused coupon past expires_at: listed %s, want expired", c.Status)
		}
		if c.ID == held.ID && c.Status != coupon.Locked {
			t.Fatalf("locked coupon: listed %s, want locked", c.Status)
		}
	}
	cases := []struct {
		status coupon.State
		want   []string
	}{
		{coupon.Unused, []string{fresh.ID}},
		{coupon.Expired, []string{stale.ID}},
		{coupon.Locked, []string{held.ID}},
		{coupon.Used, []string{spent.ID}},
		{coupon.Voided, nil},
	}
	for _, c := range cases {
		f.wantIDs("u1's "+c.status.String(), f.userCoupons("u1", c.status, now), c.want...)
	}
	// Before stale's expires_at it is still unused.
	f.wantIDs("u1's unused 1ms before expiry", f.userCoupons("u1", coupon.Unused, stale.ExpiresAt.Add(-time.Millisecond)), fresh.ID, stale.ID)
	// Coupon returns the stored state; the lazy check is the caller's.
	if got := f.coupon(stale.ID); got.Status != coupon.Unused || got.View(now).Status != coupon.Expired {
		t.Fatalf("Coupon(stale): got %s (viewed %s), want stored unused, viewed expired", got.Status, got.View(now).Status)
	}
}

func testWalletUnknownUser(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(nil)
	f.claim(tp.ID, "u1", t0)
	if cs := f.userCoupons("nobody", 0, t0); len(cs) != 0 {
		t.Fatalf("unknown user: got %d coupons, want none", len(cs))
	}
	if cs := f.userCoupons("nobody", coupon.Unused, t0); len(cs) != 0 {
		t.Fatalf("unknown user, unused: got %d coupons, want none", len(cs))
	}
}
