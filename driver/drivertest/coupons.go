package drivertest

import (
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/storetype"
)

// couponTests test the coupon rows: insert and read, the compare-and-set
// of a transition, the counts by user and the drain of due locks.
var couponTests = []test{
	{"InsertRead", testCouponInsertRead},
	{"SetGuards", testSetCoupon},
	{"Held", testCouponsHeld},
	{"UserCoupons", testUserCoupons},
	{"LocksDue", testLocksDue},
	{"LocksDueShards", testLocksDueShards},
	{"LockUnlock", testLockUnlockCoupons},
}

// newCoupon returns an unused coupon of template tp and user claimed at
// claimed, expiring a day later.
func newCoupon(id, tp, user string, claimed time.Time) coupon.Coupon {
	return coupon.Coupon{ID: id, TemplateID: tp, UserID: user, Status: coupon.Unused,
		ClaimedAt: claimed, ExpiresAt: claimed.Add(24 * time.Hour), UpdatedAt: claimed}
}

// insertCoupons stores cs, each with its own InsertClaimed (which takes
// coupons claimed at one instant), in one transaction.
func (f *fixture) insertCoupons(cs ...coupon.Coupon) {
	f.t.Helper()
	f.tx(func(tx driver.Executor) {
		for _, c := range cs {
			ok(f.t, "InsertClaimed", tx.InsertClaimed(f.ctx, []coupon.Coupon{c}))
		}
	})
}

// coupon reads coupon id through the driver's Executor.
func (f *fixture) coupon(id string) coupon.Coupon {
	f.t.Helper()
	c, err := f.d.Executor().Coupon(f.ctx, driver.CouponParams{ID: id})
	ok(f.t, "Coupon "+id, err)
	return c
}

// lock moves coupon id from what is stored to locked until until.
func (f *fixture) lock(id string, until time.Time) {
	f.t.Helper()
	from := f.coupon(id)
	next := from
	next.Status, next.LockedUntil, next.UpdatedAt = coupon.Locked, until, until.Add(-time.Hour)
	want(f.t, "lock "+id, read(f, "SetCoupon", func(tx driver.Executor) (bool, error) {
		return tx.SetCoupon(f.ctx, driver.SetCouponParams{From: from, Next: next})
	}), true)
}

// wantCoupon fails unless got has want's stored fields.
func (f *fixture) wantCoupon(what string, got, want coupon.Coupon) {
	f.t.Helper()
	if got.ID != want.ID || got.TemplateID != want.TemplateID || got.UserID != want.UserID ||
		got.Status != want.Status || got.OrderID != want.OrderID || got.Version != want.Version {
		f.t.Fatalf("%s: got %+v, want %+v", what, got, want)
	}
	wantTime(f.t, what+": ClaimedAt", got.ClaimedAt, want.ClaimedAt)
	wantTime(f.t, what+": ExpiresAt", got.ExpiresAt, want.ExpiresAt)
	wantTime(f.t, what+": LockedUntil", got.LockedUntil, want.LockedUntil)
	wantTime(f.t, what+": UpdatedAt", got.UpdatedAt, want.UpdatedAt)
}

func couponID(c coupon.Coupon) string { return c.ID }

// testCouponInsertRead: coupons inserted in one statement read back
// unused, as given, through the driver's Executor and in a transaction.
func testCouponInsertRead(f *fixture) {
	f.insertTemplates(newTemplate("tp1", 0))
	a, b := newCoupon("c1", "tp1", "u1", t0), newCoupon("c2", "tp1", "u2", t0)
	f.tx(func(tx driver.Executor) {
		ok(f.t, "InsertClaimed", tx.InsertClaimed(f.ctx, []coupon.Coupon{a, b}))
		ok(f.t, "InsertClaimed none", tx.InsertClaimed(f.ctx, nil))
	})
	stored := f.coupon("c1")
	a.Version, b.Version = stored.Version, stored.Version
	f.wantCoupon("Executor Coupon", stored, a)
	f.wantCoupon("ExecutorTx Coupon", read(f, "Coupon", func(tx driver.Executor) (coupon.Coupon, error) {
		return tx.Coupon(f.ctx, driver.CouponParams{ID: "c2"})
	}), b)
}

// testSetCoupon: SetCoupon writes next with the version plus one, and
// changes nothing when the stored coupon left from's state or version.
func testSetCoupon(f *fixture) {
	f.insertTemplates(newTemplate("tp1", 0))
	f.insertCoupons(newCoupon("c1", "tp1", "u1", t0))
	from := f.coupon("c1")
	next := from
	next.Status, next.OrderID, next.LockedUntil, next.UpdatedAt = coupon.Locked, "o1", t0.Add(time.Hour), t0.Add(time.Minute)
	stale, otherState := from, from
	stale.Version--
	otherState.Status = coupon.Used
	wantSets(f, func(tx driver.Executor, from coupon.Coupon) (bool, error) {
		return tx.SetCoupon(f.ctx, driver.SetCouponParams{From: from, Next: next})
	}, []setCase[coupon.Coupon]{
		{"stale version", stale, false},
		{"other state", otherState, false},
		{"applies", from, true},
		{"applied already", from, false},
	})
	next.Version = from.Version + 1
	f.wantCoupon("after SetCoupon", f.coupon("c1"), next)
}

// testCouponsHeld: the counts of the coupons of a template each user
// holds, of several users or one, and which IDs exist.
func testCouponsHeld(f *fixture) {
	f.insertTemplates(newTemplate("tp1", 0), newTemplate("tp2", 0))
	f.insertCoupons(newCoupon("c1", "tp1", "u1", t0), newCoupon("c2", "tp1", "u1", t0),
		newCoupon("c3", "tp1", "u2", t0), newCoupon("c4", "tp2", "u1", t0))
	f.tx(func(tx driver.Executor) {
		held, err := tx.HeldCounts(f.ctx, driver.HeldCountsParams{TemplateID: "tp1", Users: []string{"u1", "u2", "u3"}})
		ok(f.t, "HeldCounts", err)
		want(f.t, "HeldCounts u1", held["u1"], 2)
		want(f.t, "HeldCounts u2", held["u2"], 1)
		want(f.t, "HeldCounts u3", held["u3"], 0)
		one, err := tx.HeldCounts(f.ctx, driver.HeldCountsParams{TemplateID: "tp1", Users: []string{"u1"}})
		ok(f.t, "HeldCounts one user", err)
		want(f.t, "HeldCounts one user", one["u1"], 2)
		want(f.t, "HeldCounts one user: no other", len(one), 1)
		exist, err := tx.ExistingCoupons(f.ctx, []string{"c1", "c4", "c9"})
		ok(f.t, "ExistingCoupons", err)
		want(f.t, "ExistingCoupons", len(exist) == 2 && exist["c1"] && exist["c4"] && !exist["c9"], true)
	})
}

// testUserCoupons: a user's coupons page by ID, after After, up to Limit,
// filtered by the state read at Now (an unused coupon past expires_at
// reads expired).
func testUserCoupons(f *fixture) {
	f.insertTemplates(newTemplate("tp1", 0))
	f.insertCoupons(newCoupon("c3", "tp1", "u1", t0), newCoupon("c1", "tp1", "u1", t0.Add(-24*time.Hour)),
		newCoupon("c2", "tp1", "u1", t0), newCoupon("c9", "tp1", "u2", t0))
	for _, tc := range []struct {
		name   string
		p      storetype.UserCouponsParams
		wanted []string
	}{
		{"all", storetype.UserCouponsParams{UserID: "u1", Now: t0, Limit: 10}, []string{"c1", "c2", "c3"}},
		{"limit", storetype.UserCouponsParams{UserID: "u1", Now: t0, Limit: 2}, []string{"c1", "c2"}},
		{"after", storetype.UserCouponsParams{UserID: "u1", Now: t0, After: "c1", Limit: 10}, []string{"c2", "c3"}},
		{"unused", storetype.UserCouponsParams{UserID: "u1", Now: t0, Status: coupon.Unused, Limit: 10}, []string{"c2", "c3"}},
		{"expired", storetype.UserCouponsParams{UserID: "u1", Now: t0, Status: coupon.Expired, Limit: 10}, []string{"c1"}},
		{"none", storetype.UserCouponsParams{UserID: "u3", Now: t0, Limit: 10}, nil},
	} {
		got, err := f.d.Executor().UserCoupons(f.ctx, tc.p)
		ok(f.t, tc.name, err)
		wantIDs(f.t, tc.name, got, couponID, tc.wanted...)
	}
}

// testLocksDue: LocksDue reads the locked coupons due at the Now passed,
// earliest locked_until first, up to Limit.
func testLocksDue(f *fixture) {
	f.insertTemplates(newTemplate("tp1", 0))
	f.insertCoupons(newCoupon("c1", "tp1", "u1", t0), newCoupon("c2", "tp1", "u1", t0),
		newCoupon("c3", "tp1", "u1", t0), newCoupon("c4", "tp1", "u1", t0))
	f.lock("c1", t0.Add(3*time.Hour))
	f.lock("c2", t0.Add(1*time.Hour))
	f.lock("c3", t0.Add(2*time.Hour))
	wantDue(f, "LocksDue", driver.Executor.LocksDue, couponID, []dueCase{
		{t0, 10, nil},
		{t0.Add(time.Hour), 10, []string{"c2"}},
		{t0.Add(3 * time.Hour), 10, []string{"c2", "c3", "c1"}},
		{t0.Add(3 * time.Hour), 2, []string{"c2", "c3"}},
	})
}

// testLocksDueShards: LocksDue with leases reads only their shards,
// oldest due first across them.
func testLocksDueShards(f *fixture) {
	f.insertTemplates(newTemplate("tp1", 0))
	in3, in5, in7 := inShard("c", 3, 0), inShard("c", 5, 0), inShard("c", 7, 0)
	f.insertCoupons(newCoupon(in3, "tp1", "u1", t0), newCoupon(in5, "tp1", "u1", t0), newCoupon(in7, "tp1", "u1", t0))
	f.lock(in3, t0.Add(2*time.Second))
	f.lock(in5, t0.Add(time.Second))
	f.lock(in7, t0)
	f.tx(func(tx driver.Executor) {
		got, err := tx.LocksDue(f.ctx, storetype.DueParams{Now: t0.Add(time.Hour), Limit: 10,
			Leases: []storetype.Lease{{Shard: 3, Holder: "h", Token: 1}, {Shard: 7, Holder: "h", Token: 1}}})
		ok(f.t, "LocksDue", err)
		wantIDs(f.t, "LocksDue shards 3, 7", got, couponID, in7, in3)
	})
}

// testLockUnlockCoupons: LockCoupons reads the listed coupons that exist;
// UnlockCoupons moves the locked among them to the state asked (order and
// lock cleared, update time, version plus one), leaves an unused one and
// the unlisted alone, and counts what it moved.
func testLockUnlockCoupons(f *fixture) {
	f.insertTemplates(newTemplate("tp1", 0))
	f.insertCoupons(newCoupon("c1", "tp1", "u1", t0), newCoupon("c2", "tp1", "u1", t0),
		newCoupon("c3", "tp1", "u1", t0), newCoupon("c4", "tp1", "u1", t0))
	f.lock("c1", t0.Add(time.Hour))
	f.lock("c2", t0.Add(time.Hour))
	f.lock("c4", t0.Add(time.Hour))
	locked1, locked2, unused, locked4 := f.coupon("c1"), f.coupon("c2"), f.coupon("c3"), f.coupon("c4")
	now := t0.Add(2 * time.Hour)
	f.tx(func(tx driver.Executor) {
		held, err := tx.LockCoupons(f.ctx, []string{"c1", "c2", "c3", "c9"})
		ok(f.t, "LockCoupons", err)
		got := map[string]coupon.Coupon{}
		for _, c := range held {
			got[c.ID] = c
		}
		want(f.t, "LockCoupons: coupons read", len(held), 3)
		f.wantCoupon("LockCoupons c1", got["c1"], locked1)
		f.wantCoupon("LockCoupons c3", got["c3"], unused)
		n, err := tx.UnlockCoupons(f.ctx, driver.UnlockCouponsParams{IDs: []string{"c1", "c3"}, To: coupon.Unused, Now: now})
		ok(f.t, "UnlockCoupons to unused", err)
		want(f.t, "UnlockCoupons to unused", n, 1)
		n, err = tx.UnlockCoupons(f.ctx, driver.UnlockCouponsParams{IDs: []string{"c2"}, To: coupon.Expired, Now: now})
		ok(f.t, "UnlockCoupons to expired", err)
		want(f.t, "UnlockCoupons to expired", n, 1)
	})
	for _, tc := range []struct {
		from coupon.Coupon
		to   coupon.State
	}{{locked1, coupon.Unused}, {locked2, coupon.Expired}} {
		moved := tc.from
		moved.Status, moved.OrderID, moved.LockedUntil, moved.UpdatedAt, moved.Version = tc.to, "", time.Time{}, now, tc.from.Version+1
		f.wantCoupon("unlocked "+tc.from.ID, f.coupon(tc.from.ID), moved)
	}
	f.wantCoupon("c3 unused", f.coupon("c3"), unused)
	f.wantCoupon("c4 unlisted", f.coupon("c4"), locked4)
}
