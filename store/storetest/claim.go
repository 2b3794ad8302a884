package storetest

import (
	"testing"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

var claimTests = []test{
	{"Fields", testClaimFields},
	{"ExpiresAtIsTheEarlierEnd", testClaimExpiresAt},
	{"Event", testClaimEvent},
	{"PerUserLimit", testClaimPerUserLimit},
	{"SoldOut", testClaimSoldOut},
	{"Window", testClaimWindow},
	{"UnknownTemplate", testClaimUnknownTemplate},
}

func testClaimFields(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(func(tp *coupon.Template) { tp.EndsAt = t0.Add(30 * 24 * time.Hour); tp.Duration = 7 * 24 * time.Hour })
	now := t0.Add(123 * time.Millisecond)
	c := f.claim(tp.ID, "u1", now)
	if c.ID == "" {
		t.Fatalf("Claim: got empty coupon ID")
	}
	want := coupon.Coupon{
		ID: c.ID, TemplateID: tp.ID, UserID: "u1", Status: coupon.Unused,
		ClaimedAt: now, ExpiresAt: now.Add(7 * 24 * time.Hour), UpdatedAt: now, Version: 1,
	}
	f.wantCoupon("claimed", c, want)
	f.wantCoupon("read back", f.coupon(c.ID), want)
	if c2 := f.claim(tp.ID, "u1", now); c2.ID == c.ID {
		t.Fatalf("second claim: got ID %s again", c2.ID)
	}
}

// testClaimExpiresAt checks expires_at = min(claimed_at + duration, ends_at)
// for each kind of validity.
func testClaimExpiresAt(t *testing.T, open opener) {
	f := newFixture(t, open)
	end := t0.Add(48 * time.Hour)
	both := f.template(func(tp *coupon.Template) { tp.EndsAt = end; tp.Duration = 24 * time.Hour })
	endsOnly := f.template(func(tp *coupon.Template) { tp.EndsAt = end; tp.Duration = 0 })
	durOnly := f.template(func(tp *coupon.Template) { tp.Duration = 24 * time.Hour })
	cases := []struct {
		name  string
		tplID string
		now   time.Time
		want  time.Time
	}{
		{"duration ends first", both.ID, t0, t0.Add(24 * time.Hour)},
		{"ends_at caps duration", both.ID, t0.Add(30 * time.Hour), end},
		{"both end together", both.ID, t0.Add(24 * time.Hour), end},
		{"ends_at only", endsOnly.ID, t0.Add(5 * time.Millisecond), end},
		{"duration only", durOnly.ID, t0.Add(999 * time.Hour), t0.Add(1023 * time.Hour)},
	}
	for i, c := range cases {
		got := f.claim(c.tplID, "u"+string(rune('a'+i)), c.now)
		f.wantTime(c.name+": returned expires_at", got.ExpiresAt, c.want)
		f.wantTime(c.name+": stored expires_at", f.coupon(got.ID).ExpiresAt, c.want)
	}
}

func testClaimEvent(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(nil)
	now := t0.Add(42 * time.Millisecond)
	c := f.claim(tp.ID, "u1", now)
	es := f.events()
	if len(es) != 1 {
		t.Fatalf("events after one claim: got %d, want 1: %s", len(es), fmtEvents(es))
	}
	f.wantEvent("claim", es[0], store.EventCouponClaimed, c, now, store.CouponEventData{Reason: store.ReasonClaim})
	f.wantCounts("counts", f.counts(tp.ID, now), map[coupon.State]int64{coupon.Unused: 1})
}

func testClaimPerUserLimit(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(func(tp *coupon.Template) { tp.PerUserLimit = 2 })
	f.claim(tp.ID, "u1", t0)
	f.claim(tp.ID, "u1", t0.Add(time.Second))
	before := f.snap(tp.ID, "u1", t0.Add(2*time.Second))
	_, err := f.s.Claim(f.ctx, store.ClaimParams{TemplateID: tp.ID, UserID: "u1", Now: t0.Add(2 * time.Second)})
	f.wantErr("third claim", err, coupon.ErrLimitReached)
	f.unchanged("refused claim", tp.ID, "u1", t0.Add(2*time.Second), before)
	// The limit is per user and per template.
	f.claim(tp.ID, "u2", t0.Add(3*time.Second))
	other := f.template(func(tp *coupon.Template) { tp.PerUserLimit = 1 })
	f.claim(other.ID, "u1", t0.Add(3*time.Second))
}

func testClaimSoldOut(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(func(tp *coupon.Template) { tp.Total = 3 })
	for _, u := range []string{"u1", "u2", "u3"} {
		f.claim(tp.ID, u, t0)
	}
	for _, u := range []string{"u4", "u1"} {
		before := f.snap(tp.ID, u, t0.Add(time.Second))
		_, err := f.s.Claim(f.ctx, store.ClaimParams{TemplateID: tp.ID, UserID: u, Now: t0.Add(time.Second)})
		f.wantErr("claim by "+u+" after the total", err, coupon.ErrSoldOut)
		f.unchanged("refused claim by "+u, tp.ID, u, t0.Add(time.Second), before)
	}
	// Issued coupons count against the total whatever becomes of them.
	f.do(f.userCoupons("u1", 0, t0)[0].ID, act(coupon.Void, "", t0.Add(2*time.Second)))
	_, err := f.s.Claim(f.ctx, store.ClaimParams{TemplateID: tp.ID, UserID: "u5", Now: t0.Add(3 * time.Second)})
	f.wantErr("claim after a void", err, coupon.ErrSoldOut)
}

// testClaimWindow checks the claim window [starts_at, ends_at).
func testClaimWindow(t *testing.T, open opener) {
	f := newFixture(t, open)
	start, end := t0, t0.Add(time.Hour)
	tp := f.template(func(tp *coupon.Template) { tp.StartsAt = start; tp.EndsAt = end })
	for _, now := range []time.Time{start.Add(-time.Millisecond), end, end.Add(time.Hour)} {
		before := f.snap(tp.ID, "u1", now)
		_, err := f.s.Claim(f.ctx, store.ClaimParams{TemplateID: tp.ID, UserID: "u1", Now: now})
		f.wantErr("claim at "+fmtTime(now), err, coupon.ErrNotClaimable)
		f.unchanged("refused claim at "+fmtTime(now), tp.ID, "u1", now, before)
	}
	f.claim(tp.ID, "u1", start)
	f.claim(tp.ID, "u2", end.Add(-time.Millisecond))
}

func testClaimUnknownTemplate(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(nil)
	before := f.snap(tp.ID, "u1", t0)
	_, err := f.s.Claim(f.ctx, store.ClaimParams{TemplateID: "tpl_nosuchtemplate", UserID: "u1", Now: t0})
	f.wantErr("claim of an unknown template", err, storetype.ErrNotFound)
	f.unchanged("refused claim", tp.ID, "u1", t0, before)
}
