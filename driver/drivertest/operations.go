package drivertest

import (
	"slices"
	"strings"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/storetype"
)

// operationTests test the rows of bulk operations: the operation row, its
// due list, and the coupon reads and writes of its batches.
var operationTests = []test{
	{"InsertSetRead", testOperationRow},
	{"Due", testOperationsDue},
	{"CouponsAfter", testCouponsAfter},
	{"UsersCoupons", testUsersCoupons},
	{"VoidCoupons", testVoidCoupons},
	{"ExtendCoupons", testExtendCoupons},
	{"PendingVoid", testPendingVoid},
}

// newOperation returns a running operation of ID id held by holder until
// leaseUntil.
func newOperation(id, holder string, leaseUntil time.Time) driver.OperationRow {
	return driver.OperationRow{ID: id, Kind: string(storetype.OperationVoid), Target: `{"template_id":"tp1"}`, Args: `{"reason":"r"}`,
		Counts: `{}`, Actor: "admin", State: storetype.OperationRunning, Holder: holder, CreatedAt: t0, LeaseUntil: leaseUntil, Total: 10}
}

// insertOperations stores rs in one transaction.
func (f *fixture) insertOperations(rs ...driver.OperationRow) {
	f.t.Helper()
	insert(f, "InsertOperation", driver.Executor.InsertOperation, rs...)
}

// wantOperation fails unless got is want.
func (f *fixture) wantOperation(what string, got, want driver.OperationRow) {
	f.t.Helper()
	times := [][2]time.Time{{got.CreatedAt, want.CreatedAt}, {got.StartedAt, want.StartedAt},
		{got.FinishedAt, want.FinishedAt}, {got.LeaseUntil, want.LeaseUntil}}
	for _, tm := range times {
		wantTime(f.t, what, tm[0], tm[1])
	}
	got.CreatedAt, got.StartedAt, got.FinishedAt, got.LeaseUntil = want.CreatedAt, want.StartedAt, want.FinishedAt, want.LeaseUntil
	if got != want {
		f.t.Fatalf("%s: got %+v, want %+v", what, got, want)
	}
}

// testOperationRow: an operation reads back as inserted, then as
// SetOperation stored it, through the driver's Executor and in a
// transaction.
func testOperationRow(f *fixture) {
	op := newOperation("op1", "", time.Time{})
	f.insertOperations(op)
	got, err := f.d.Executor().Operation(f.ctx, "op1")
	ok(f.t, "Executor Operation", err)
	f.wantOperation("inserted", got, op)
	op.Counts, op.Cursor, op.Holder, op.StartedAt, op.LeaseUntil, op.Done = `{"voided":3}`, "c3", "h1", t0.Add(time.Minute), t0.Add(time.Hour), 3
	f.tx(func(tx driver.Executor) { ok(f.t, "SetOperation", tx.SetOperation(f.ctx, op)) })
	op.State, op.FinishedAt = storetype.OperationDone, t0.Add(2*time.Hour)
	f.tx(func(tx driver.Executor) { ok(f.t, "SetOperation", tx.SetOperation(f.ctx, op)) })
	f.wantOperation("set", read(f, "ExecutorTx Operation", func(tx driver.Executor) (driver.OperationRow, error) { return tx.Operation(f.ctx, "op1") }), op)
}

// testOperationsDue: the running operations holder may take at the now
// passed: held by none, by holder or past their lease, by ID, up to
// limit.
func testOperationsDue(f *fixture) {
	done := newOperation("op0", "", time.Time{})
	done.State = storetype.OperationDone
	f.insertOperations(done, newOperation("op4", "", time.Time{}), newOperation("op3", "h1", t0.Add(time.Hour)),
		newOperation("op2", "h2", t0.Add(time.Hour)), newOperation("op1", "h2", t0))
	for _, tc := range []struct {
		holder string
		limit  int
		want   []string
	}{
		{"h1", 10, []string{"op1", "op3", "op4"}},
		{"h2", 10, []string{"op1", "op2", "op4"}},
		{"h3", 10, []string{"op1", "op4"}},
		{"h1", 2, []string{"op1", "op3"}},
	} {
		f.tx(func(tx driver.Executor) {
			got, err := tx.OperationsDue(f.ctx, driver.OperationsDueParams{Holder: tc.holder, Now: t0, Limit: tc.limit})
			ok(f.t, "OperationsDue", err)
			want(f.t, "OperationsDue "+tc.holder, slices.Equal(got, tc.want), true)
		})
	}
}

// insertBatchCoupons stores c1 … c5 of tp1 (c5 of tp2) for u1 and u2.
func (f *fixture) insertBatchCoupons() {
	f.t.Helper()
	f.insertTemplates(newTemplate("tp1", 0), newTemplate("tp2", 0))
	f.insertCoupons(newCoupon("c1", "tp1", "u1", t0), newCoupon("c2", "tp1", "u2", t0), newCoupon("c3", "tp1", "u1", t0),
		newCoupon("c4", "tp1", "u2", t0), newCoupon("c5", "tp2", "u1", t0))
}

// testCouponsAfter: a template's coupons after After and at most Until,
// by ID, up to Limit.
func testCouponsAfter(f *fixture) {
	f.insertBatchCoupons()
	for _, tc := range []struct {
		p    driver.CouponsAfterParams
		want []string
	}{
		{driver.CouponsAfterParams{TemplateID: "tp1", Until: "c9", Limit: 10}, []string{"c1", "c2", "c3", "c4"}},
		{driver.CouponsAfterParams{TemplateID: "tp1", After: "c1", Until: "c3", Limit: 10}, []string{"c2", "c3"}},
		{driver.CouponsAfterParams{TemplateID: "tp1", After: "c1", Until: "c9", Limit: 2}, []string{"c2", "c3"}},
		{driver.CouponsAfterParams{TemplateID: "tp2", Until: "c9", Limit: 10}, []string{"c5"}},
	} {
		f.tx(func(tx driver.Executor) {
			got, err := tx.CouponsAfter(f.ctx, tc.p)
			ok(f.t, "CouponsAfter", err)
			wantIDs(f.t, "CouponsAfter", got, couponID, tc.want...)
		})
	}
}

// testUsersCoupons: the listed users' coupons with an ID at most until,
// in any order.
func testUsersCoupons(f *fixture) {
	f.insertBatchCoupons()
	f.tx(func(tx driver.Executor) {
		got, err := tx.UsersCoupons(f.ctx, driver.UsersCouponsParams{UserIDs: []string{"u1", "u9"}, Until: "c3"})
		ok(f.t, "UsersCoupons", err)
		slices.SortFunc(got, func(a, b coupon.Coupon) int { return strings.Compare(a.ID, b.ID) })
		wantIDs(f.t, "UsersCoupons", got, couponID, "c1", "c3")
	})
}

// testVoidCoupons: VoidCoupons voids those listed that are unused and
// unexpired at the now passed, as SetCoupon would, and counts them.
func testVoidCoupons(f *fixture) {
	f.insertBatchCoupons()
	f.lock("c2", t0.Add(time.Hour))
	late := newCoupon("c6", "tp1", "u1", t0.Add(-24*time.Hour))
	f.insertCoupons(late)
	before := f.coupon("c1")
	now := t0.Add(time.Minute)
	got := read(f, "VoidCoupons", func(tx driver.Executor) (int64, error) {
		return tx.VoidCoupons(f.ctx, driver.VoidCouponsParams{IDs: []string{"c1", "c2", "c6", "c9"}, Now: now})
	})
	want(f.t, "VoidCoupons", got, 1)
	voided := before
	voided.Status, voided.UpdatedAt, voided.Version = coupon.Voided, now, before.Version+1
	f.wantCoupon("voided", f.coupon("c1"), voided)
	want(f.t, "locked kept", f.coupon("c2").Status, coupon.Locked)
	want(f.t, "expired kept", f.coupon("c6").Status, coupon.Unused)
}

// testExtendCoupons: ExtendCoupons sets the expires_at of the unused or
// locked coupons listed, to To or moved by By, and counts them.
func testExtendCoupons(f *fixture) {
	f.insertBatchCoupons()
	f.lock("c2", t0.Add(time.Hour))
	from := f.coupon("c3")
	next := from
	next.Status, next.UpdatedAt = coupon.Used, t0
	got := read(f, "SetCoupon", func(tx driver.Executor) (bool, error) {
		return tx.SetCoupon(f.ctx, driver.SetCouponParams{From: from, Next: next})
	})
	want(f.t, "SetCoupon", got, true)
	to := t0.Add(72 * time.Hour)
	for _, tc := range []struct {
		p       driver.ExtendCouponsParams
		changed int64
	}{
		{driver.ExtendCouponsParams{IDs: []string{"c1", "c3"}, To: to, Now: t0}, 1},
		{driver.ExtendCouponsParams{IDs: []string{"c2", "c3", "c9"}, By: time.Hour, Now: t0}, 1},
	} {
		got := read(f, "ExtendCoupons", func(tx driver.Executor) (int64, error) { return tx.ExtendCoupons(f.ctx, tc.p) })
		want(f.t, "ExtendCoupons", got, tc.changed)
	}
	wantTime(f.t, "c1 to", f.coupon("c1").ExpiresAt, to)
	wantTime(f.t, "c2 by", f.coupon("c2").ExpiresAt, t0.Add(25*time.Hour))
	wantTime(f.t, "c3 used kept", f.coupon("c3").ExpiresAt, t0.Add(24*time.Hour))
}

// testPendingVoid: a coupon's mark is put once, listed by PendingVoids
// until taken, and taken once.
func testPendingVoid(f *fixture) {
	first := driver.PendingVoid{CouponID: "c1", Operation: "op1", Reason: "r1", Actor: "a1"}
	f.tx(func(tx driver.Executor) {
		ok(f.t, "PutPendingVoid", tx.PutPendingVoid(f.ctx, first))
		ok(f.t, "PutPendingVoid again", tx.PutPendingVoid(f.ctx, driver.PendingVoid{CouponID: "c1", Operation: "op2", Reason: "r2", Actor: "a2"}))
	})
	marked := func(tx driver.Executor) ([]string, error) { return tx.PendingVoids(f.ctx, []string{"c1", "c2"}) }
	wantIDs(f.t, "PendingVoids", read(f, "PendingVoids", marked), ident, "c1")
	for _, tc := range []struct {
		want  driver.PendingVoid
		taken bool
	}{{first, true}, {driver.PendingVoid{}, false}} {
		f.tx(func(tx driver.Executor) {
			got, taken, err := tx.TakePendingVoid(f.ctx, "c1")
			ok(f.t, "TakePendingVoid", err)
			want(f.t, "taken", taken, tc.taken)
			if taken {
				want(f.t, "mark", got, tc.want)
			}
		})
	}
	wantIDs(f.t, "PendingVoids once taken", read(f, "PendingVoids", marked), ident)
}
