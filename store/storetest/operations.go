package storetest

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/remind"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// Bulk operations: void and extend of a template's coupons or of a list,
// in batches, resumed after a crash, with one event per coupon changed.

var operationTests = []test{
	{"VoidTemplate", testOpVoidTemplate},
	{"VoidList", testOpVoidList},
	{"VoidUsers", testOpVoidUsers},
	{"VoidClaimedSameInstant", testOpVoidSameInstant},
	{"LockedVoidedWhenLockEnds", testOpLockedVoided},
	{"RedeemedStaysUsed", testOpRedeemedStaysUsed},
	{"ClaimsDuringVoid", testOpClaimsDuringVoid},
	{"Extend", testOpExtend},
	{"ExtendMissed", testOpExtendMissed},
	{"Reminders", testOpReminders},
	{"Invalid", testOpInvalid},
	{"Idempotent", testOpIdempotent},
	{"Resume", testOpResume},
}

// opMix claims, for a fresh template, the coupons an operation meets:
// two unused, one locked by order "o1", one used, and one that reads as
// expired at t0 (claimed a day before). It returns them in that order.
func (f *fixture) opMix() (tplID string, cs []coupon.Coupon) {
	f.t.Helper()
	tp := f.template(nil)
	old := f.claim(tp.ID, "u-old", t0.Add(-24*time.Hour))
	for _, u := range []string{"u1", "u2", "u3", "u4"} {
		cs = append(cs, f.claim(tp.ID, u, t0.Add(-time.Hour)))
	}
	cs[2] = f.do(cs[2].ID, store.TransitionParams{Action: coupon.Lock, OrderID: "o1", LockTTL: 15 * time.Minute, Now: t0})
	cs[3] = f.do(cs[3].ID, store.TransitionParams{Action: coupon.Redeem, OrderID: "o2", Now: t0})
	return tp.ID, append(cs, old)
}

// startOp starts an operation at t0, which must succeed.
func (f *fixture) startOp(p store.StartOperationParams) store.Operation {
	f.t.Helper()
	if p.Now.IsZero() {
		p.Now = t0
	}
	op, err := f.s.StartOperation(f.ctx, p)
	if err != nil {
		f.t.Fatalf("StartOperation: %v", err)
	}
	if op.State != storetype.OperationRunning || op.ID == "" {
		f.t.Fatalf("StartOperation: got %+v, want a running operation", op)
	}
	return op
}

// runOp claims an operation as holder and works it in batches of limit
// at now until it is done, and returns it.
func (f *fixture) runOp(holder string, limit int, now time.Time) store.Operation {
	f.t.Helper()
	op, ok, err := f.s.ClaimOperation(f.ctx, store.ClaimOperationParams{Holder: holder, TTL: time.Minute, Now: now})
	if err != nil || !ok {
		f.t.Fatalf("ClaimOperation(%s): %v, %v", holder, ok, err)
	}
	for i := 0; op.State == storetype.OperationRunning; i++ {
		if i > 100 {
			f.t.Fatalf("operation %s: still running after %d batches: %+v", op.ID, i, op)
		}
		if op, err = f.s.WorkOperation(f.ctx, store.WorkOperationParams{ID: op.ID, Holder: holder, TTL: time.Minute, Now: now, Limit: limit}); err != nil {
			f.t.Fatalf("WorkOperation(%s): %v", op.ID, err)
		}
	}
	got, err := f.s.Operation(f.ctx, op.ID)
	if err != nil || got.State != storetype.OperationDone || got.Done != op.Done {
		f.t.Fatalf("Operation(%s): %+v, %v; want it done as worked: %+v", op.ID, got, err, op)
	}
	return got
}

// wantOpCounts fails unless op's counts are want.
func (f *fixture) wantOpCounts(op store.Operation, want storetype.OperationCounts) {
	f.t.Helper()
	got, _ := json.Marshal(op.Counts)
	w, _ := json.Marshal(want)
	if string(got) != string(w) {
		f.t.Fatalf("operation %s counts: got %s, want %s", op.ID, got, w)
	}
}

// wantOpEvent fails unless the coupon's events after the cursor are
// exactly one of typ, naming operation op and reason (a void without
// one gives "void").
func (f *fixture) wantOpEvent(after int64, couponID, typ, op, reason string) {
	f.t.Helper()
	got := ofSubject(f.eventsAfter(after), couponID)
	if len(got) != 1 || got[0].Type != typ {
		f.t.Fatalf("events of %s: got %s, want one %s", couponID, fmtEvents(got), typ)
	}
	var d struct{ Operation, Reason string }
	if err := json.Unmarshal(got[0].Data, &d); err != nil || d.Operation != op || d.Reason != reason {
		f.t.Fatalf("event %s of %s: data %s, want operation %s, reason %q", typ, couponID, got[0].Data, op, reason)
	}
}

// wantNoEvents fails if a coupon has events after the cursor.
func (f *fixture) wantNoEvents(after int64, couponIDs ...string) {
	f.t.Helper()
	for _, e := range f.eventsAfter(after) {
		for _, id := range couponIDs {
			if e.Subject == id {
				f.t.Fatalf("coupon %s: unexpected event %s", id, e.Type)
			}
		}
	}
}

func testOpVoidTemplate(t *testing.T, open opener) {
	f := newFixture(t, open)
	tplID, cs := f.opMix()
	p := store.StartOperationParams{Kind: storetype.OperationVoid, Target: storetype.OperationTarget{TemplateID: tplID}, Args: storetype.OperationArgs{Reason: "leaked"}, Now: t0}
	preview, err := f.s.PreviewOperation(f.ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	f.wantCounts("preview", preview, map[coupon.State]int64{coupon.Unused: 2, coupon.Locked: 1, coupon.Used: 1, coupon.Expired: 1})
	f.wantCounts("counts after the preview", f.counts(tplID, t0), preview)
	after := f.cursor()
	op := f.startOp(p)
	if op.Total != 5 {
		t.Fatalf("total: got %d, want 5", op.Total)
	}
	op = f.runOp("a", 2, t0)
	f.wantOpCounts(op, storetype.OperationCounts{Voided: 2, Skipped: map[string]int64{"expired": 1, "used": 1}, PendingLocked: 1})
	if op.Done != 5 || op.StartedAt.IsZero() || op.FinishedAt.IsZero() {
		t.Fatalf("operation: got %+v, want 5 done, started and finished", op)
	}
	for _, c := range cs[:2] {
		if got := f.coupon(c.ID); got.Status != coupon.Voided {
			t.Fatalf("coupon %s: got %s, want voided", c.ID, got.Status)
		}
		f.wantOpEvent(after, c.ID, store.EventCouponVoided, op.ID, "leaked")
	}
	f.wantNoEvents(after, cs[2].ID, cs[3].ID, cs[4].ID)
	f.wantCounts("counts", f.counts(tplID, t0), map[coupon.State]int64{coupon.Voided: 2, coupon.Locked: 1, coupon.Used: 1, coupon.Expired: 1})
}

func testOpVoidList(t *testing.T, open opener) {
	f := newFixture(t, open)
	_, cs := f.opMix()
	ids := []string{cs[1].ID, "cpn_missing", cs[0].ID, cs[3].ID, cs[0].ID}
	p := store.StartOperationParams{Kind: storetype.OperationVoid, Target: storetype.OperationTarget{CouponIDs: ids}}
	after := f.cursor()
	op := f.startOp(p)
	if op.Total != 4 {
		t.Fatalf("total: got %d, want 4 (the list without its duplicate)", op.Total)
	}
	op = f.runOp("a", 3, t0)
	f.wantOpCounts(op, storetype.OperationCounts{Voided: 2, Skipped: map[string]int64{"missing": 1, "used": 1}})
	f.wantOpEvent(after, cs[0].ID, store.EventCouponVoided, op.ID, "void")
	f.wantOpEvent(after, cs[1].ID, store.EventCouponVoided, op.ID, "void")
	f.wantNoEvents(after, cs[2].ID, cs[3].ID)
}

// testOpVoidUsers: a void of a list of users works every coupon they
// hold, of every template, one user's coupons all in one batch; the
// preview counts them; other users' coupons are left alone.
func testOpVoidUsers(t *testing.T, open opener) {
	f := newFixture(t, open)
	_, cs := f.opMix() // unused u1, u2; locked u3; used u4; expired u-old
	other := f.template(nil)
	more := f.claim(other.ID, "u1", t0.Add(-time.Hour))
	p := store.StartOperationParams{Kind: storetype.OperationVoid, Now: t0,
		Target: storetype.OperationTarget{UserIDs: []string{"u3", "u1", "nobody", "u4", "u1"}}}
	preview, err := f.s.PreviewOperation(f.ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	f.wantCounts("preview", preview, map[coupon.State]int64{coupon.Unused: 2, coupon.Locked: 1, coupon.Used: 1})
	after := f.cursor()
	op := f.startOp(p)
	if op.Total != 4 || !slices.Equal(op.Target.UserIDs, []string{"nobody", "u1", "u3", "u4"}) {
		t.Fatalf("operation: total %d, users %v; want 4, the list sorted without its duplicate", op.Total, op.Target.UserIDs)
	}
	op = f.runOp("a", 1, t0)
	f.wantOpCounts(op, storetype.OperationCounts{Voided: 2, Skipped: map[string]int64{"used": 1}, PendingLocked: 1})
	if op.Done != 4 {
		t.Fatalf("done: got %d, want the 4 users", op.Done)
	}
	f.wantOpEvent(after, cs[0].ID, store.EventCouponVoided, op.ID, "void")
	f.wantOpEvent(after, more.ID, store.EventCouponVoided, op.ID, "void")
	f.wantNoEvents(after, cs[1].ID, cs[2].ID, cs[3].ID, cs[4].ID)
	f.wantStatus("u2's coupon", cs[1].ID, coupon.Unused)
}

// testOpVoidSameInstant: a coupon voided in the millisecond it was
// claimed gets a coupon.voided event whose ID is not its coupon.claimed's.
func testOpVoidSameInstant(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(nil)
	c := f.claim(tp.ID, "u1", t0)
	old := f.claim(tp.ID, "u2", t0.Add(-time.Hour))
	f.startOp(store.StartOperationParams{Kind: storetype.OperationVoid, Target: storetype.OperationTarget{TemplateID: tp.ID}})
	op := f.runOp("a", 10, t0)
	f.wantOpCounts(op, storetype.OperationCounts{Voided: 2, Skipped: map[string]int64{}})
	for _, id := range []string{c.ID, old.ID} {
		es := f.eventsOf(id)
		if len(es) != 2 || es[0].Type != store.EventCouponClaimed || es[1].Type != store.EventCouponVoided || es[0].ID == es[1].ID {
			t.Fatalf("events of %s: got %s, want coupon.claimed then coupon.voided, IDs apart", id, fmtEvents(es))
		}
		if d := f.data(es[1]); d.Operation != op.ID || d.From != "unused" || d.Reason != "void" {
			t.Fatalf("coupon.voided of %s: data %s, want operation %s, from unused, reason void", id, es[1].Data, op.ID)
		}
	}
}

func testOpLockedVoided(t *testing.T, open opener) {
	for _, end := range []struct {
		name string
		do   store.TransitionParams
	}{
		{"Unlock", store.TransitionParams{Action: coupon.Unlock, OrderID: "o1", Now: t0.Add(time.Minute)}},
		{"LockTTL", store.TransitionParams{}},
	} {
		t.Run(end.name, func(t *testing.T) {
			f := newFixture(t, open)
			tplID, cs := f.opMix()
			op := f.startOp(store.StartOperationParams{Kind: storetype.OperationVoid, Target: storetype.OperationTarget{TemplateID: tplID}, Args: storetype.OperationArgs{Reason: "leaked"}})
			op = f.runOp("a", 10, t0)
			f.wantStatus("locked coupon under its checkout", cs[2].ID, coupon.Locked)
			after := f.cursor()
			if end.do.Action != 0 {
				f.do(cs[2].ID, end.do)
			} else if _, err := f.s.ReleaseLocks(f.ctx, storetype.DueParams{Now: t0.Add(20 * time.Minute), Limit: 10}); err != nil {
				t.Fatal(err)
			}
			f.wantStatus("once its lock ended", cs[2].ID, coupon.Voided)
			f.wantOpEvent(after, cs[2].ID, store.EventCouponVoided, op.ID, "leaked")
			f.wantCounts("counts", f.counts(tplID, t0), map[coupon.State]int64{coupon.Voided: 3, coupon.Used: 1, coupon.Expired: 1})
		})
	}
}

// testOpRedeemedStaysUsed: a coupon locked when a void ran and then
// redeemed by its order stays used (the lock was taken in time), and the
// mark outlives the redeem: refunded, it is voided by the operation, not
// given back unused; refunded past its expires_at, it expires.
func testOpRedeemedStaysUsed(t *testing.T, open opener) {
	for _, tc := range []struct {
		name     string
		refundAt func(c coupon.Coupon) time.Time
		want     coupon.State
		event    string
	}{
		{"Refunded", func(coupon.Coupon) time.Time { return t0.Add(2 * time.Minute) }, coupon.Voided, store.EventCouponVoided},
		{"RefundedPastExpiry", func(c coupon.Coupon) time.Time { return c.ExpiresAt }, coupon.Expired, store.EventCouponExpired},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, open)
			tplID, cs := f.opMix()
			f.startOp(store.StartOperationParams{Kind: storetype.OperationVoid, Target: storetype.OperationTarget{TemplateID: tplID}, Args: storetype.OperationArgs{Reason: "leaked"}})
			op := f.runOp("a", 10, t0)
			if got := f.do(cs[2].ID, store.TransitionParams{Action: coupon.Redeem, OrderID: "o1", Now: t0.Add(time.Minute)}); got.Status != coupon.Used {
				t.Fatalf("redeemed under its lock: got %s, want used", got.Status)
			}
			after := f.cursor()
			if got := f.do(cs[2].ID, store.TransitionParams{Action: coupon.Refund, OrderID: "o1", Now: tc.refundAt(cs[2])}); got.Status != tc.want {
				t.Fatalf("after redeem and refund: got %s, want %s", got.Status, tc.want)
			}
			if tc.want == coupon.Voided {
				f.wantOpEvent(after, cs[2].ID, store.EventCouponVoided, op.ID, "leaked")
			} else if es := f.eventsAfter(after); len(es) != 1 || es[0].Type != tc.event {
				t.Fatalf("events after the refund: got %s, want one %s", fmtEvents(es), tc.event)
			}
			_, err := f.s.Transition(f.ctx, store.TransitionParams{CouponID: cs[2].ID, Action: coupon.Lock, OrderID: "o3", LockTTL: time.Minute, Now: t0.Add(3 * time.Minute)})
			if err == nil {
				t.Fatalf("lock after the refund: got no error, want a refusal")
			}
			want := map[coupon.State]int64{coupon.Voided: 2, coupon.Used: 1, coupon.Expired: 1}
			want[tc.want]++
			f.wantCounts("counts", f.counts(tplID, t0), want)
		})
	}
}

func testOpExtend(t *testing.T, open opener) {
	f := newFixture(t, open)
	tplID, cs := f.opMix()
	after := f.cursor()
	op := f.startOp(store.StartOperationParams{Kind: storetype.OperationExtend, Target: storetype.OperationTarget{TemplateID: tplID}, Args: storetype.OperationArgs{By: 72 * time.Hour}})
	op = f.runOp("a", 2, t0)
	f.wantOpCounts(op, storetype.OperationCounts{Extended: 3, Skipped: map[string]int64{"expired": 1, "used": 1}})
	for _, c := range cs[:3] {
		got := f.coupon(c.ID)
		f.wantTime("expires_at of "+c.ID, got.ExpiresAt, c.ExpiresAt.Add(72*time.Hour))
		f.wantOpEvent(after, c.ID, store.EventCouponExtended, op.ID, "")
	}
	f.wantNoEvents(after, cs[3].ID, cs[4].ID)
	// Past the old expires_at, the lazy check and the expiry drain see the
	// new one.
	past := cs[0].ExpiresAt.Add(time.Hour)
	if got := f.userCoupons("u1", coupon.Unused, past); len(got) != 1 {
		t.Fatalf("u1's unused coupons past the old expires_at: got %d, want 1", len(got))
	}
	if _, err := f.s.ExpireDue(f.ctx, storetype.DueParams{Now: past, Limit: 100}); err != nil {
		t.Fatal(err)
	}
	f.wantStatus("after a drain past the old expires_at", cs[0].ID, coupon.Unused)
	due := false
	for _, tm := range f.timers() {
		due = due || (tm.Kind == storetype.TimerExpire && !tm.Due.Before(cs[0].ExpiresAt.Add(72*time.Hour)))
	}
	if !due {
		t.Fatalf("no expiry timer at the new expires_at: %v", f.timers())
	}
	// Set to an absolute time, the locked coupon included.
	at := t0.Add(240 * time.Hour)
	f.startOp(store.StartOperationParams{Kind: storetype.OperationExtend, Target: storetype.OperationTarget{CouponIDs: []string{cs[2].ID}}, Args: storetype.OperationArgs{ExpiresAt: at}})
	f.runOp("a", 2, t0)
	f.wantTime("expires_at set", f.coupon(cs[2].ID).ExpiresAt, at)
}

// testOpReminders: a batch's voided coupons leave their planned
// reminders (one left empty is dropped), and its extended ones are
// reminded at their new crossing, not the old one.
func testOpReminders(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp, x, a, b, only := f.voidMix()
	f.startOp(store.StartOperationParams{Kind: storetype.OperationVoid, Target: storetype.OperationTarget{CouponIDs: []string{a.ID, only.ID}}, Now: t0.Add(time.Hour)})
	f.wantOpCounts(f.runOp("a", 10, t0.Add(time.Hour)), storetype.OperationCounts{Voided: 2, Skipped: map[string]int64{}})
	f.startOp(store.StartOperationParams{Kind: storetype.OperationExtend, Target: storetype.OperationTarget{TemplateID: tp.ID}, Args: storetype.OperationArgs{By: 72 * time.Hour}, Now: t0.Add(time.Hour)})
	f.wantOpCounts(f.runOp("a", 10, t0.Add(time.Hour)), storetype.OperationCounts{Extended: 1, Skipped: map[string]int64{"voided": 2}})
	f.wantNone("at a's crossing", f.sendAt(x))
	f.wantNone("at b's old crossing", f.sendAt(x.Add(30*time.Minute)))
	b.ExpiresAt = b.ExpiresAt.Add(72 * time.Hour)
	f.wantOne("at b's new one", f.sendAt(x.Add(72*time.Hour+30*time.Minute)), "v", remind.InApp, "24h", true, b)
	f.wantNone("w's only coupon voided", f.sendAt(x.Add(96*time.Hour)))
}

func testOpInvalid(t *testing.T, open opener) {
	f := newFixture(t, open)
	tplID, _ := f.opMix()
	tpl := storetype.OperationTarget{TemplateID: tplID}
	for _, tc := range []struct {
		name  string
		p     store.StartOperationParams
		field string
	}{
		{"ExtendPast", store.StartOperationParams{Kind: storetype.OperationExtend, Target: tpl, Args: storetype.OperationArgs{ExpiresAt: t0.Add(-time.Second)}}, "expires_at"},
		{"ExtendNow", store.StartOperationParams{Kind: storetype.OperationExtend, Target: tpl, Args: storetype.OperationArgs{ExpiresAt: t0}}, "expires_at"},
		{"ExtendBoth", store.StartOperationParams{Kind: storetype.OperationExtend, Target: tpl, Args: storetype.OperationArgs{ExpiresAt: later, By: time.Hour}}, "expires_at"},
		{"ExtendNeither", store.StartOperationParams{Kind: storetype.OperationExtend, Target: tpl}, "expires_at"},
		{"ExtendNegative", store.StartOperationParams{Kind: storetype.OperationExtend, Target: tpl, Args: storetype.OperationArgs{By: -time.Hour}}, "by"},
		{"NoTarget", store.StartOperationParams{Kind: storetype.OperationVoid}, "template_id"},
		{"TwoTargets", store.StartOperationParams{Kind: storetype.OperationVoid, Target: storetype.OperationTarget{TemplateID: tplID, CouponIDs: []string{"c"}}}, "template_id"},
		{"CouponsAndUsers", store.StartOperationParams{Kind: storetype.OperationVoid, Target: storetype.OperationTarget{CouponIDs: []string{"c"}, UserIDs: []string{"u"}}}, "template_id"},
		{"BadUser", store.StartOperationParams{Kind: storetype.OperationVoid, Target: storetype.OperationTarget{UserIDs: []string{"u1", "bad\x00"}}}, "user_ids[1]"},
		{"Kind", store.StartOperationParams{Kind: "burn", Target: tpl}, "kind"},
	} {
		tc.p.Now = t0
		var inv *coupon.InvalidError
		_, err := f.s.StartOperation(f.ctx, tc.p)
		if !errors.As(err, &inv) || inv.Field != tc.field {
			t.Fatalf("%s: got %v, want invalid %s", tc.name, err, tc.field)
		}
	}
	_, err := f.s.StartOperation(f.ctx, store.StartOperationParams{Kind: storetype.OperationVoid, Target: storetype.OperationTarget{TemplateID: "tpl_none"}, Now: t0})
	f.wantErr("unknown template", err, storetype.ErrNotFound)
	_, err = f.s.Operation(f.ctx, "op_none")
	f.wantErr("unknown operation", err, storetype.ErrNotFound)
	if _, ok, err := f.s.ClaimOperation(f.ctx, store.ClaimOperationParams{Holder: "a", TTL: time.Minute, Now: t0}); ok || err != nil {
		t.Fatalf("ClaimOperation with none started: %v, %v", ok, err)
	}
}

func testOpIdempotent(t *testing.T, open opener) {
	f := newFixture(t, open)
	tplID, _ := f.opMix()
	p := store.StartOperationParams{Kind: storetype.OperationVoid, Target: storetype.OperationTarget{TemplateID: tplID}, Now: t0, Idem: scopedIdem("k1", t0)}
	op := f.startOp(p)
	f.runOp("a", 10, t0)
	p.Now, p.Idem = t0.Add(time.Minute), scopedIdem("k1", t0.Add(time.Minute))
	_, err := f.s.StartOperation(f.ctx, p)
	f.wantReplay("the same request again", err, op, t0)
	if _, ok, err := f.s.ClaimOperation(f.ctx, store.ClaimOperationParams{Holder: "a", TTL: time.Minute, Now: t0}); ok || err != nil {
		t.Fatalf("ClaimOperation after the replay: %v, %v; want none to work", ok, err)
	}
}

func testOpResume(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(nil)
	var cs []coupon.Coupon
	for _, u := range []string{"u1", "u2", "u3", "u4", "u5"} {
		cs = append(cs, f.claim(tp.ID, u, t0.Add(-time.Hour)))
	}
	slices.SortFunc(cs, func(a, b coupon.Coupon) int { return strings.Compare(a.ID, b.ID) }) // the order worked
	after := f.cursor()
	op := f.startOp(store.StartOperationParams{Kind: storetype.OperationVoid, Target: storetype.OperationTarget{TemplateID: tp.ID}})
	claim := func(holder string, now time.Time) (store.Operation, bool) {
		got, ok, err := f.s.ClaimOperation(f.ctx, store.ClaimOperationParams{Holder: holder, TTL: time.Minute, Now: now})
		if err != nil {
			t.Fatal(err)
		}
		return got, ok
	}
	if _, ok := claim("a", t0); !ok {
		t.Fatal("a: no operation to claim")
	}
	got, err := f.s.WorkOperation(f.ctx, store.WorkOperationParams{ID: op.ID, Holder: "a", TTL: time.Minute, Now: t0, Limit: 2})
	if err != nil || got.Done != 2 || got.Cursor != cs[1].ID {
		t.Fatalf("first batch: %+v, %v", got, err)
	}
	// a dies; b may not take it while a's lease lasts, then resumes after
	// the last batch a committed.
	if _, ok := claim("b", t0.Add(30*time.Second)); ok {
		t.Fatal("b took the operation under a's lease")
	}
	if got, ok := claim("b", t0.Add(2*time.Minute)); !ok || got.Done != 2 {
		t.Fatalf("b after a's lease: %+v, %v", got, ok)
	}
	_, err = f.s.WorkOperation(f.ctx, store.WorkOperationParams{ID: op.ID, Holder: "a", TTL: time.Minute, Now: t0.Add(2 * time.Minute), Limit: 2})
	f.wantErr("a's batch after b took over", err, store.ErrLeaseLost)
	op = f.runOp("b", 2, t0.Add(2*time.Minute))
	f.wantOpCounts(op, storetype.OperationCounts{Voided: 5, Skipped: map[string]int64{}})
	for _, c := range cs {
		f.wantOpEvent(after, c.ID, store.EventCouponVoided, op.ID, "void")
	}
}

// testOpClaimsDuringVoid: a void works the coupons that existed when it
// was accepted, those claimed in its millisecond included, and none
// claimed after, of a template or of a list of users, while claims go
// on; its progress never passes its total, which for a template is the
// coupons it had issued then.
func testOpClaimsDuringVoid(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(nil)
	var before []coupon.Coupon
	for i, u := range []string{"u1", "u2", "u3", "u4"} {
		before = append(before, f.claim(tp.ID, u, t0.Add(time.Duration(i-4)*time.Second)))
	}
	before = append(before, f.claim(tp.ID, "u5", t0)) // in the millisecond it is accepted
	tplOp := f.startOp(store.StartOperationParams{Kind: storetype.OperationVoid, Target: storetype.OperationTarget{TemplateID: tp.ID}})
	usersOp := f.startOp(store.StartOperationParams{Kind: storetype.OperationVoid, Target: storetype.OperationTarget{UserIDs: []string{"u1", "u9"}}})
	if tplOp.Total != 5 || usersOp.Total != 2 {
		t.Fatalf("totals at acceptance: %d and %d, want 5 coupons and 2 users", tplOp.Total, usersOp.Total)
	}
	// Holder a takes one operation, b the other.
	held := map[string]store.Operation{}
	for _, holder := range []string{"a", "b"} {
		op, ok, err := f.s.ClaimOperation(f.ctx, store.ClaimOperationParams{Holder: holder, TTL: time.Minute, Now: t0})
		if err != nil || !ok {
			t.Fatalf("ClaimOperation(%s): %v, %v", holder, ok, err)
		}
		held[holder] = op
	}
	var after []coupon.Coupon
	now := t0
	for i := 0; held["a"].State == storetype.OperationRunning || held["b"].State == storetype.OperationRunning; i++ {
		if i > 20 {
			t.Fatalf("operations still running after %d rounds: %+v", i, held)
		}
		// Claims go on between batches: each round, two more coupons.
		now = now.Add(time.Second)
		after = append(after, f.claim(tp.ID, "u1", now), f.claim(tp.ID, "u9", now))
		for holder, op := range held {
			if op.State != storetype.OperationRunning {
				continue
			}
			op, err := f.s.WorkOperation(f.ctx, store.WorkOperationParams{ID: op.ID, Holder: holder, TTL: time.Minute, Now: now, Limit: 2})
			if err != nil {
				t.Fatalf("WorkOperation(%s): %v", op.ID, err)
			}
			if op.Done > op.Total {
				t.Fatalf("operation %s after a batch: progress %d of %d", op.ID, op.Done, op.Total)
			}
			held[holder] = op
		}
	}
	for _, id := range []string{tplOp.ID, usersOp.ID} {
		if op, err := f.s.Operation(f.ctx, id); err != nil || op.State != storetype.OperationDone || op.Done != op.Total {
			t.Fatalf("operation %s: %+v, %v; want done, progress at its total", id, op, err)
		}
	}
	if op, _ := f.s.Operation(f.ctx, tplOp.ID); op.Total != 5 || op.Counts.Voided+op.Counts.Skipped["voided"] != 5 {
		t.Fatalf("template void: total %d, counts %+v; want 5, each voided by it or by the other", op.Total, op.Counts)
	}
	for _, c := range before {
		if got := f.coupon(c.ID); got.Status != coupon.Voided {
			t.Fatalf("coupon %s claimed before the voids: got %s, want voided", c.ID, got.Status)
		}
	}
	for _, c := range after {
		if got := f.coupon(c.ID); got.Status != coupon.Unused {
			t.Fatalf("coupon %s claimed after the voids were accepted: got %s, want unused", c.ID, got.Status)
		}
	}
}

// testOpExtendMissed: an extension accepted before coupons expire but
// worked after leaves them expired, since an expiry is never undone, and
// counts them missed, apart from those expired before it was accepted;
// the coupons still unused when it comes to them are extended.
func testOpExtendMissed(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(func(tp *coupon.Template) { tp.StartsAt = t0.Add(-48 * time.Hour) }) // coupons live 24h
	gone := f.claim(tp.ID, "u0", t0.Add(-25*time.Hour))
	var soon []coupon.Coupon
	for _, u := range []string{"u1", "u2"} {
		soon = append(soon, f.claim(tp.ID, u, t0.Add(-24*time.Hour+800*time.Millisecond)))
	}
	kept := f.claim(tp.ID, "u3", t0.Add(-time.Hour))
	op := f.startOp(store.StartOperationParams{Kind: storetype.OperationExtend, Target: storetype.OperationTarget{TemplateID: tp.ID}, Args: storetype.OperationArgs{By: 72 * time.Hour}})
	// The worker comes a second later: the drain stored one expired, the
	// other reads as expired.
	if _, err := f.s.ExpireDue(f.ctx, storetype.DueParams{Now: t0.Add(time.Second), Limit: 1}); err != nil {
		t.Fatal(err)
	}
	op = f.runOp("a", 10, t0.Add(time.Second))
	f.wantOpCounts(op, storetype.OperationCounts{Extended: 1, Skipped: map[string]int64{"expired": 1}, Missed: 2})
	if op.Done != 4 || op.Total != 4 {
		t.Fatalf("progress: %d of %d, want 4 of 4", op.Done, op.Total)
	}
	for _, c := range append(soon, gone) {
		if got := f.coupon(c.ID); !got.ExpiresAt.Equal(c.ExpiresAt) || got.View(t0.Add(time.Second)).Status != coupon.Expired {
			t.Fatalf("coupon %s: expires %s, reads %s; want it expired as it was", c.ID, got.ExpiresAt, got.View(t0.Add(time.Second)).Status)
		}
	}
	f.wantTime("expires_at of the coupon still unused", f.coupon(kept.ID).ExpiresAt, kept.ExpiresAt.Add(72*time.Hour))
}
