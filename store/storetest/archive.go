package storetest

import (
	"errors"
	"testing"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

var archiveTests = []test{
	{"MovesOldTerminalCoupons", testArchiveCoupons},
	{"KeepsPerUserLimit", testArchiveLimit},
	{"MovesFinishedOrders", testArchiveOrders},
	{"PrunesReminderHistory", testArchiveReminders},
}

// archive runs one archive of what was last changed at or before before,
// at now, in batches of limit.
func (f *fixture) archive(before, now time.Time, limit int, dryRun bool) storetype.Archived {
	f.t.Helper()
	return get(f, "Archive", f.s.Archive, store.ArchiveParams{Before: before, Now: now, Limit: limit, DryRun: dryRun})
}

// wantArchived fails unless got is want.
func (f *fixture) wantArchived(what string, got, want storetype.Archived) {
	f.t.Helper()
	wantEqual(f, what, got, want)
}

// testArchiveCoupons: the archive moves exactly the terminal coupons last
// changed by its cutoff, a batch at a time; they are still found by ID and
// in the wallet that asks for them, the template's counts do not change,
// a second run moves nothing, and an archived coupon takes no transition.
func testArchiveCoupons(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.durationTemplate() // coupons live 1h
	cut := t0.Add(2 * time.Hour)
	used := f.do(f.claim(tp.ID, "u1", t0).ID, act(coupon.Redeem, "o1", t0.Add(time.Minute)))
	voided := f.do(f.claim(tp.ID, "u1", t0).ID, act(coupon.Void, "", t0.Add(2*time.Minute)))
	expired := f.claim(tp.ID, "u1", t0)
	f.expireDue(cut, 100) // stores expired at cut: on the edge, moved
	late := f.do(f.claim(tp.ID, "u1", cut).ID, act(coupon.Redeem, "o2", cut.Add(time.Millisecond)))
	live := f.claim(tp.ID, "u1", cut)
	held := f.do(f.claim(tp.ID, "u2", t0).ID, lock("o3", t0.Add(time.Minute), time.Hour))
	now := cut.Add(time.Hour)
	before := f.counts(tp.ID, now)

	want := storetype.Archived{Coupons: 3}
	f.wantArchived("dry run", f.archive(cut, now, 0, true), want)
	f.wantArchived("dry run again", f.archive(cut, now, 0, true), want)
	f.wantIDs("u1's wallet after a dry run", f.userCoupons("u1", 0, now), used.ID, voided.ID, expired.ID, late.ID, live.ID)

	f.wantArchived("archive in batches of 2", f.archive(cut, now, 2, false), want)
	f.wantIDs("u1's hot wallet", f.userCoupons("u1", 0, now), late.ID, live.ID)
	f.wantIDs("u1's wallet with the archive", f.wallet("u1", 0, now), used.ID, voided.ID, expired.ID, late.ID, live.ID)
	f.wantIDs("u1's used with the archive", f.wallet("u1", coupon.Used, now), used.ID, late.ID)
	f.wantIDs("u2's wallet with the archive", f.wallet("u2", 0, now), held.ID)
	for _, c := range []coupon.Coupon{used, voided} {
		if got := f.coupon(c.ID); got != c {
			t.Fatalf("archived coupon read by ID: got %s, want %s", fmtCoupon(got), fmtCoupon(c))
		}
	}
	if got := f.coupon(expired.ID); got.Status != coupon.Expired {
		t.Fatalf("archived expired coupon read by ID: got %s", fmtCoupon(got))
	}
	f.wantCounts("counts after the archive", f.counts(tp.ID, now), before)
	f.wantArchived("second run", f.archive(cut, now, 0, false), storetype.Archived{})
	_, err := f.s.Transition(f.ctx, store.TransitionParams{CouponID: used.ID, Action: coupon.Refund, OrderID: "o1", Now: now})
	if !errors.Is(err, storetype.ErrNotFound) {
		t.Fatalf("refund of an archived coupon: got %v, want ErrNotFound", err)
	}
}

// wallet reads a user's coupons, archived ones too.
func (f *fixture) wallet(user string, status coupon.State, now time.Time) []coupon.Coupon {
	f.t.Helper()
	return f.walletPages(storetype.UserCouponsParams{UserID: user, Status: status, Now: now, Archived: true})
}

// testArchiveLimit: a user's archived coupons count towards the
// template's per-user limit, for a claim and for a bulk issuance.
func testArchiveLimit(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(func(tp *coupon.Template) { tp.PerUserLimit = 1 })
	c := f.do(f.claim(tp.ID, "u1", t0).ID, act(coupon.Void, "", t0))
	now := t0.Add(time.Hour)
	f.wantArchived("archive", f.archive(now, now, 0, false), storetype.Archived{Coupons: 1})
	if _, err := f.s.Claim(f.ctx, store.ClaimParams{TemplateID: tp.ID, UserID: "u1", Now: now}); !errors.Is(err, coupon.ErrLimitReached) {
		t.Fatalf("claim past the limit held in the archive: got %v, want ErrLimitReached", err)
	}
	got := f.issue(store.IssueParams{TemplateID: tp.ID, Users: store.UserList([]string{"u1", "u2"}), Now: now})
	f.wantIssued("issue past the limit held in the archive", got, 1, []store.Refusal{refusal("u1", coupon.ErrLimitReached)})
	f.wantIDs("u1's wallet", f.wallet("u1", 0, now), c.ID)
}

// testArchiveOrders: paid and closed orders last changed by the cutoff
// move, and are still found by ID; unpaid ones stay.
func testArchiveOrders(t *testing.T, open opener) {
	f := newOrderFixture(t, open)
	paid := f.create()
	paid, err := f.s.PayOrder(f.ctx, store.PayOrderParams{OrderID: paid.ID, PaymentID: "pay1", Amount: paid.AmountDue, Now: t0.Add(time.Minute)})
	if err != nil {
		t.Fatalf("PayOrder: %v", err)
	}
	closed, err := f.s.CloseOrder(f.ctx, store.CloseOrderParams{OrderID: f.create().ID, Reason: order.ReasonCancelled, Now: t0.Add(time.Minute)})
	if err != nil {
		t.Fatalf("CloseOrder: %v", err)
	}
	open1 := f.create()
	now := t0.Add(time.Hour)
	want := storetype.Archived{Orders: 2}
	f.wantArchived("dry run", f.archive(t0.Add(time.Minute), now, 0, true), want)
	f.wantArchived("archive", f.archive(t0.Add(time.Minute), now, 1, false), want)
	for _, o := range []order.Order{paid, closed, open1} {
		got := f.order(o.ID)
		if got.Status != o.Status || got.UpdatedAt != o.UpdatedAt || got.AmountDue != o.AmountDue || got.PaymentID != o.PaymentID {
			t.Fatalf("order %s after the archive: got %+v, want %+v", o.ID, got, o)
		}
	}
	f.wantSKU("stock after the archive", sku1, 4, 3, 3)
	f.wantArchived("second run", f.archive(now, now, 0, false), storetype.Archived{})
}

// testArchiveReminders: sent reminders are deleted once done before the
// cutoff, but never within store.ReminderHistory of now.
func testArchiveReminders(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.leadTemplate(24*time.Hour, 1000, time.Hour)
	f.claimCrossing(tp, "u1", time.Hour, t0)
	if got := f.sendAt(t0); len(got) != 1 {
		t.Fatalf("reminders sent at t0: got %d, want 1", len(got))
	}
	soon := t0.Add(time.Hour)
	f.wantArchived("within the history", f.archive(soon, soon, 0, false), storetype.Archived{})
	now := t0.Add(store.ReminderHistory)
	f.wantArchived("dry run past the history", f.archive(soon, now, 0, true), storetype.Archived{Reminders: 1})
	f.wantArchived("past the history", f.archive(soon, now, 0, false), storetype.Archived{Reminders: 1})
	f.wantArchived("second run", f.archive(soon, now, 0, false), storetype.Archived{})
}
