package drivertest

import (
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/storetype"
)

// expireTests test the expiry drain: which coupons it moves to expired,
// in which order, what it returns of them, and that it writes no event
// (the service does).
var expireTests = []test{
	{"Due", testExpireDue},
	{"Shards", testExpireDueShards},
}

// expiring returns an unused coupon of tp1 and user expiring at
// expires.
func expiring(id, user string, expires time.Time) coupon.Coupon {
	return newCoupon(id, "tp1", user, expires.Add(-24*time.Hour))
}

// expireDue runs ExpireDue with p in a transaction of its own.
func (f *fixture) expireDue(p storetype.DueParams) []coupon.Coupon {
	f.t.Helper()
	return read(f, "ExpireDue", func(tx driver.Executor) ([]coupon.Coupon, error) { return tx.ExpireDue(f.ctx, p) })
}

// testExpireDue: ExpireDue expires the unused coupons due at the Now
// passed (never the database's clock, which is past every expires_at
// here but the last), oldest due first, up to Limit, returns each with
// its template, user and expires_at, leaves coupons not due or not
// unused alone, and writes no event.
func testExpireDue(f *fixture) {
	f.insertTemplates(newTemplate("tp1", 0))
	c1, c2, c3 := expiring("c1", "u1", t0.Add(3*time.Hour)), expiring("c2", "u2", t0.Add(2*time.Hour)), expiring("c3", "u1", t0.Add(time.Hour))
	c4, c7 := expiring("c4", "u1", t0.Add(5*time.Hour)), expiring("c7", "u1", later)
	f.insertCoupons(c1, c2, c3, c4, expiring("c5", "u1", t0), expiring("c6", "u1", t0), c7)
	f.lock("c5", t0.Add(time.Hour))
	f.setCoupon("c6", coupon.Used, t0)
	expired := f.coupon("c2")
	at := t0.Add(3 * time.Hour)
	for _, tc := range []struct {
		now    time.Time
		limit  int
		wanted []coupon.Coupon
	}{
		{t0, 10, nil},
		{at, 2, []coupon.Coupon{c3, c2}},
		{at, 10, []coupon.Coupon{c1}},
		{at, 10, nil},
		{later, 10, []coupon.Coupon{c4, c7}},
	} {
		got := f.expireDue(storetype.DueParams{Now: tc.now, Limit: tc.limit})
		what := "ExpireDue at " + tc.now.String()
		wantIDs(f.t, what, got, couponID, keys(tc.wanted, couponID)...)
		for i, c := range got {
			want(f.t, what+": TemplateID", c.TemplateID, tc.wanted[i].TemplateID)
			want(f.t, what+": UserID", c.UserID, tc.wanted[i].UserID)
			wantTime(f.t, what+": ExpiresAt", c.ExpiresAt, tc.wanted[i].ExpiresAt)
		}
	}
	expired.Status, expired.UpdatedAt, expired.Version = coupon.Expired, at, expired.Version+1
	f.wantCoupon("expired", f.coupon("c2"), expired)
	want(f.t, "locked kept", f.coupon("c5").Status, coupon.Locked)
	want(f.t, "used kept", f.coupon("c6").Status, coupon.Used)
	want(f.t, "no event", f.feedEnd(), 0)
}

// testExpireDueShards: ExpireDue with leases expires only coupons of
// their shards, oldest due first across them. (Which coupons a Limit
// below the due ones picks across shards that are not consecutive is
// left out: PostgreSQL takes one run of shards after the other.)
func testExpireDueShards(f *fixture) {
	f.insertTemplates(newTemplate("tp1", 0))
	in3, in5, in7 := inShard("c", 3, 0), inShard("c", 5, 0), inShard("c", 7, 0)
	f.insertCoupons(expiring(in3, "u1", t0.Add(2*time.Second)), expiring(in5, "u1", t0), expiring(in7, "u1", t0.Add(time.Second)))
	got := f.expireDue(storetype.DueParams{Now: t0.Add(time.Hour), Limit: 10,
		Leases: []storetype.Lease{{Shard: 3, Holder: "h", Token: 1}, {Shard: 7, Holder: "h", Token: 1}}})
	wantIDs(f.t, "ExpireDue shards 3, 7", got, couponID, in7, in3)
	want(f.t, "other shard kept", f.coupon(in5).Status, coupon.Unused)
}
