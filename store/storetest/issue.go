package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

var issueTests = []test{
	{"AsClaims", testIssueAsClaims},
	{"Batches", testIssueBatches},
	{"PerUserLimit", testIssuePerUserLimit},
	{"Total", testIssueTotal},
	{"RefusalsInListOrder", testIssueRefusalOrder},
	{"RefusalsBounded", testIssueRefusalsBounded},
	{"UsersFail", testIssueUsersFail},
	{"WholeCallRefusals", testIssueWholeCall},
	{"Replay", testIssueReplay},
	{"Conflict", testIssueConflict},
}

// issue runs a bulk issuance that must succeed.
func (f *fixture) issue(p store.IssueParams) store.Issued {
	f.t.Helper()
	return get(f, "Issue", f.s.Issue, p)
}

// wantIssued fails unless got issued n and refused exactly want, in order,
// all listed and counted.
func (f *fixture) wantIssued(what string, got store.Issued, n int64, want []store.Refusal) {
	f.t.Helper()
	if got.Issued != n {
		f.t.Fatalf("%s: issued: got %d, want %d", what, got.Issued, n)
	}
	counts := map[error]int64{}
	for _, r := range want {
		counts[r.Reason]++
	}
	f.wantRefusedCount(what, got, counts)
	if len(got.Refused) != len(want) {
		f.t.Fatalf("%s: refused: got %v, want %v", what, got.Refused, want)
	}
	for i := range want {
		if got.Refused[i].UserID != want[i].UserID || !errors.Is(got.Refused[i].Reason, want[i].Reason) {
			f.t.Fatalf("%s: refused[%d]: got %v, want %v", what, i, got.Refused[i], want[i])
		}
	}
}

// wantRefusedCount fails unless got counts refusals by reason as want.
func (f *fixture) wantRefusedCount(what string, got store.Issued, want map[error]int64) {
	f.t.Helper()
	if len(got.RefusedCount) != len(want) {
		f.t.Fatalf("%s: refused count: got %v, want %v", what, got.RefusedCount, want)
	}
	for reason, n := range want {
		if got.RefusedCount[reason] != n {
			f.t.Fatalf("%s: refused %v: got %d, want %d", what, reason, got.RefusedCount[reason], n)
		}
	}
}

func refusal(user string, reason error) store.Refusal {
	return store.Refusal{UserID: user, Reason: reason}
}

// users returns n user IDs u0 … u(n-1).
func users(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("u%d", i)
	}
	return out
}

// testIssueAsClaims: every issued coupon is what a claim at the same
// instant writes: the row, the claimed event, the count and the timer.
func testIssueAsClaims(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.durationTemplate() // 1h
	now := t0.Add(250 * time.Millisecond)
	f.wantIssued("issue", f.issue(store.IssueParams{TemplateID: tp.ID, Users: store.UserList(users(3)), Now: now}), 3, nil)
	byID := map[string]coupon.Coupon{}
	for _, u := range users(3) {
		cs := f.userCoupons(u, 0, now)
		if len(cs) != 1 {
			t.Fatalf("%s's coupons: got %d, want 1", u, len(cs))
		}
		want := coupon.Coupon{
			ID: cs[0].ID, TemplateID: tp.ID, UserID: u, Status: coupon.Unused,
			ClaimedAt: now, ExpiresAt: now.Add(time.Hour), UpdatedAt: now, Version: 1,
		}
		f.wantCoupon(u+"'s coupon", cs[0], want)
		byID[want.ID] = want
	}
	es := f.events()
	if len(es) != 3 {
		t.Fatalf("events: got %s, want 3 coupon.claimed", fmtEvents(es))
	}
	for _, e := range es {
		f.wantEvent("issued event", e, store.EventCouponClaimed, byID[e.Subject], now, store.CouponEventData{Reason: store.ReasonClaim})
	}
	f.wantCounts("counts", f.counts(tp.ID, now), map[coupon.State]int64{coupon.Unused: 3})
	f.wantTimers("timers", f.timers(), []storetype.Timer{{Kind: storetype.TimerExpire, Due: t0.Add(time.Hour)}})
}

// testIssueBatches: the outcome does not depend on the batch size.
func testIssueBatches(t *testing.T, open opener) {
	for _, size := range []int{1, 2, 3, 7, 0} {
		t.Run(fmt.Sprintf("size %d", size), func(t *testing.T) {
			f := newFixture(t, open)
			tp := f.template(func(tp *coupon.Template) { tp.Total = 5; tp.PerUserLimit = 1 })
			list := []string{"a", "b", "a", "c", "d", "e", "f"}
			got := f.issue(store.IssueParams{TemplateID: tp.ID, Users: store.UserList(list), Now: t0, BatchSize: size})
			f.wantIssued("issue", got, 5, []store.Refusal{refusal("a", coupon.ErrLimitReached), refusal("f", coupon.ErrSoldOut)})
			f.wantCounts("counts", f.counts(tp.ID, t0), map[coupon.State]int64{coupon.Unused: 5})
			if es := f.events(); len(es) != 5 {
				t.Fatalf("events: got %d, want 5", len(es))
			}
		})
	}
}

// testIssuePerUserLimit: the limit counts what a user held before and what
// the issuance gave them, within a batch and across batches; a user over
// the limit does not use up the total.
func testIssuePerUserLimit(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(func(tp *coupon.Template) { tp.PerUserLimit = 2; tp.Total = 5 })
	f.claim(tp.ID, "u1", t0)
	list := []string{"u1", "u2", "u1", "u2", "u2", "u3", "u4"}
	got := f.issue(store.IssueParams{TemplateID: tp.ID, Users: store.UserList(list), Now: t0, BatchSize: 2})
	f.wantIssued("issue", got, 4, []store.Refusal{
		refusal("u1", coupon.ErrLimitReached), refusal("u2", coupon.ErrLimitReached), refusal("u4", coupon.ErrSoldOut),
	})
	for u, n := range map[string]int{"u1": 2, "u2": 2, "u3": 1, "u4": 0} {
		if got := len(f.userCoupons(u, 0, t0)); got != n {
			t.Fatalf("%s's coupons: got %d, want %d", u, got, n)
		}
	}
	_, err := f.s.Claim(f.ctx, store.ClaimParams{TemplateID: tp.ID, UserID: "u5", Now: t0})
	f.wantErr("claim after the total", err, coupon.ErrSoldOut)
}

// testIssueRefusalOrder: however a backend orders its work, the refusals
// come back in list order and a user's later entries are the refused ones.
func testIssueRefusalOrder(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(func(tp *coupon.Template) { tp.PerUserLimit = 1 })
	list := []string{"d", "c", "a", "c", "b", "a", "d"}
	got := f.issue(store.IssueParams{TemplateID: tp.ID, Users: store.UserList(list), Now: t0, BatchSize: 2})
	f.wantIssued("issue", got, 4, []store.Refusal{
		refusal("c", coupon.ErrLimitReached), refusal("a", coupon.ErrLimitReached), refusal("d", coupon.ErrLimitReached),
	})
}

// testIssueRefusalsBounded: past store.MaxRefused refusals, across
// batches, the first are listed in list order and all are counted by
// reason; SoldOutFrom is where the total ran out.
func testIssueRefusalsBounded(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(func(tp *coupon.Template) { tp.PerUserLimit = 1; tp.Total = 3 })
	f.claim(tp.ID, "u0", t0)
	list := users(store.MaxRefused + 500) // u0 limit-reached; u1, u2 issued; sold-out from u3 on
	list = append(list, "u1")             // limit-reached, past the listed refusals
	got := f.issue(store.IssueParams{TemplateID: tp.ID, Users: store.UserList(list), Now: t0, BatchSize: 300})
	if got.Issued != 2 || len(got.Refused) != store.MaxRefused || got.SoldOutFrom != 3 {
		t.Fatalf("issue: issued %d, listed %d, sold out from %d; want 2, %d, 3", got.Issued, len(got.Refused), got.SoldOutFrom, store.MaxRefused)
	}
	f.wantRefusedCount("issue", got, map[error]int64{coupon.ErrLimitReached: 2, coupon.ErrSoldOut: int64(len(list) - 4)})
	want := []store.Refusal{refusal("u0", coupon.ErrLimitReached)}
	for _, u := range list[3 : store.MaxRefused+2] {
		want = append(want, refusal(u, coupon.ErrSoldOut))
	}
	for i := range want {
		if got.Refused[i].UserID != want[i].UserID || !errors.Is(got.Refused[i].Reason, want[i].Reason) {
			t.Fatalf("refused[%d]: got %v, want %v", i, got.Refused[i], want[i])
		}
	}
}

// errUsers is what the user list of testIssueUsersFail fails with.
var errUsers = errors.New("user list unreadable")

// testIssueUsersFail: a user list that fails past its first batch (a
// spool that cannot be read back, say) fails the issuance with its error,
// the batch before committed and, under an idempotency key, the key in
// flight; the same request again finishes it, each user issued once.
func testIssueUsersFail(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(func(tp *coupon.Template) { tp.PerUserLimit = 1 })
	list := users(5)
	failing := func(yield func(string, error) bool) {
		for _, u := range list[:3] {
			if !yield(u, nil) {
				return
			}
		}
		yield("", errUsers)
	}
	p := store.IssueParams{TemplateID: tp.ID, Users: failing, Now: t0, BatchSize: 2}
	_, err := f.s.Issue(f.ctx, withIdem(p, issueIdem("bulk", "fp", t0)))
	f.wantErr("failing list", err, errUsers)
	if n := len(f.events()); n != 2 {
		t.Fatalf("after the failing list: %d coupons issued, want the first batch's 2", n)
	}
	_, err = f.s.Claim(f.ctx, store.ClaimParams{TemplateID: tp.ID, UserID: "u9", Now: t0, Idem: issueIdem("bulk", "claim", t0)})
	f.wantErr("claim under the in-flight key", err, storetype.ErrIdempotencyConflict)

	p.Users = store.UserList(list)
	p.Idem = issueIdem("bulk", "fp", t0)
	got, err := f.s.Issue(f.ctx, p)
	if err != nil {
		t.Fatalf("retry: %v", err)
	}
	f.wantIssued("retry", got, 5, nil)
	_, err = f.s.Issue(f.ctx, p)
	f.wantReplay("replay", err, got, t0)
	if es := f.events(); len(es) != 5 {
		t.Fatalf("events: got %s, want 5 coupon.claimed", fmtEvents(es))
	}
}

// testIssueTotal: users past the total are refused sold-out, in order,
// and an issuance to a sold-out template writes nothing.
func testIssueTotal(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(func(tp *coupon.Template) { tp.Total = 3 })
	f.claim(tp.ID, "a", t0)
	got := f.issue(store.IssueParams{TemplateID: tp.ID, Users: store.UserList([]string{"b", "c", "d", "e"}), Now: t0})
	f.wantIssued("issue", got, 2, []store.Refusal{refusal("d", coupon.ErrSoldOut), refusal("e", coupon.ErrSoldOut)})
	before := f.snap(tp.ID, "f", t0)
	got = f.issue(store.IssueParams{TemplateID: tp.ID, Users: store.UserList([]string{"f"}), Now: t0})
	f.wantIssued("issue when sold out", got, 0, []store.Refusal{refusal("f", coupon.ErrSoldOut)})
	f.unchanged("issue when sold out", tp.ID, "f", t0, before)

	// A user refused sold-out was given nothing: listed again, they are
	// refused sold-out again, as their claims would be, not limit-reached.
	tp = f.template(func(tp *coupon.Template) { tp.Total = 1; tp.PerUserLimit = 1 })
	got = f.issue(store.IssueParams{TemplateID: tp.ID, Users: store.UserList([]string{"b", "a", "a"}), Now: t0})
	f.wantIssued("issue past the total to a limited user", got, 1, []store.Refusal{refusal("a", coupon.ErrSoldOut), refusal("a", coupon.ErrSoldOut)})
}

// testIssueWholeCall: an unknown template or a closed window refuses the
// whole call and writes nothing.
func testIssueWholeCall(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(func(tp *coupon.Template) { tp.StartsAt = t0; tp.EndsAt = t0.Add(time.Hour) })
	cases := []struct {
		name string
		id   string
		now  time.Time
		want error
	}{
		{"unknown template", "tpl_nosuchtemplate", t0, storetype.ErrNotFound},
		{"before starts_at", tp.ID, t0.Add(-time.Millisecond), coupon.ErrNotClaimable},
		{"at ends_at", tp.ID, t0.Add(time.Hour), coupon.ErrNotClaimable},
	}
	for _, c := range cases {
		before := f.snap(tp.ID, "u1", c.now)
		_, err := f.s.Issue(f.ctx, store.IssueParams{TemplateID: c.id, Users: store.UserList(users(5)), Now: c.now, BatchSize: 2})
		f.wantErr(c.name, err, c.want)
		f.unchanged(c.name, tp.ID, "u1", c.now, before)
	}
}

// issueIdem is the key of an issuance, of fingerprint fp.
func issueIdem(key, fp string, now time.Time) *store.Idempotency {
	idem := scopedIdem(key, now)
	idem.Fingerprint = fp
	return idem
}

// testIssueReplay: a retried issuance replays the whole outcome, however
// many batches it took, and issues nothing more.
func testIssueReplay(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(func(tp *coupon.Template) { tp.Total = 4 })
	p := store.IssueParams{TemplateID: tp.ID, Users: store.UserList(users(6)), Now: t0, BatchSize: 2}
	got, err := f.s.Issue(f.ctx, withIdem(p, issueIdem("bulk-1", "fp", t0)))
	if err != nil {
		t.Fatalf("first issue: %v", err)
	}
	f.wantIssued("first issue", got, 4, []store.Refusal{refusal("u4", coupon.ErrSoldOut), refusal("u5", coupon.ErrSoldOut)})
	before := f.snap(tp.ID, "u0", t0)
	p.Now = t0.Add(time.Minute)
	_, err = f.s.Issue(f.ctx, withIdem(p, issueIdem("bulk-1", "fp", p.Now)))
	f.wantReplay("retry", err, got, t0)
	f.unchanged("retry", tp.ID, "u0", p.Now, before)
	// A single mutation under the same key is another request.
	_, err = f.s.Claim(f.ctx, store.ClaimParams{TemplateID: tp.ID, UserID: "u9", Now: t0, Idem: issueIdem("bulk-1", "claim", t0)})
	f.wantErr("claim under the issuance's key", err, storetype.ErrIdempotencyConflict)
}

// testIssueConflict: a key reused for another issuance is refused before
// anything is written.
func testIssueConflict(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(nil)
	p := store.IssueParams{TemplateID: tp.ID, Users: store.UserList(users(3)), Now: t0, BatchSize: 2}
	if _, err := f.s.Issue(f.ctx, withIdem(p, issueIdem("bulk-1", "fp1", t0))); err != nil {
		t.Fatalf("first issue: %v", err)
	}
	before := f.snap(tp.ID, "u0", t0)
	_, err := f.s.Issue(f.ctx, withIdem(p, issueIdem("bulk-1", "fp2", t0)))
	f.wantErr("same key, other fingerprint", err, storetype.ErrIdempotencyConflict)
	f.unchanged("conflicting issue", tp.ID, "u0", t0, before)
}

// runIssueResume checks that a bulk issuance under an idempotency key that
// dies after its first batch committed (its context is cancelled from the
// commit hook) is finished by a retry of the same request: at the first
// attempt's Now, every user issued to once, the whole outcome answered and
// stored; meanwhile the key is taken. newDriver is as for Run.
func runIssueResume(t *testing.T, newDriver NewDriver) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var commits atomic.Int64
	s := open(t, newDriver, store.Hooks{OnEvents: func([]storetype.Event) {
		if commits.Add(1) == 1 {
			cancel()
		}
	}})
	f := &fixture{t: t, s: s, ctx: t.Context()}
	tp := f.template(func(tp *coupon.Template) { tp.PerUserLimit = 1 })
	p := store.IssueParams{TemplateID: tp.ID, Users: store.UserList([]string{"u0", "u1", "u0", "u2", "u3", "u4"}), Now: t0, BatchSize: 2}

	_, err := s.Issue(ctx, withIdem(p, issueIdem("bulk", "fp", t0)))
	f.wantErr("first attempt", err, context.Canceled)
	// The first batch issued to the first two users of the list.
	if n := len(f.events()); n != 2 {
		t.Fatalf("after the first batch: %d coupons issued, want 2", n)
	}

	_, err = s.Claim(f.ctx, store.ClaimParams{TemplateID: tp.ID, UserID: "u9", Now: t0, Idem: issueIdem("bulk", "claim", t0)})
	f.wantErr("claim under the in-flight key", err, storetype.ErrIdempotencyConflict)

	later := t0.Add(time.Minute)
	p.Now = later
	got, err := s.Issue(f.ctx, withIdem(p, issueIdem("bulk", "fp", later)))
	if err != nil {
		t.Fatalf("retry: %v", err)
	}
	f.wantIssued("retry", got, 5, []store.Refusal{refusal("u0", coupon.ErrLimitReached)})
	for _, u := range users(5) {
		cs := f.userCoupons(u, 0, later)
		if len(cs) != 1 {
			t.Fatalf("%s holds %d coupons, want 1", u, len(cs))
		}
		f.wantTime(u+"'s coupon claimed_at", cs[0].ClaimedAt, t0)
	}
	if es := f.events(); len(es) != 5 {
		t.Fatalf("events: got %s, want 5 coupon.claimed", fmtEvents(es))
	}
	f.wantCounts("counts", f.counts(tp.ID, t0), map[coupon.State]int64{coupon.Unused: 5})
	_, err = s.Issue(f.ctx, withIdem(p, issueIdem("bulk", "fp", later)))
	f.wantReplay("second retry", err, got, t0)
}

// withIdem is p under idem.
func withIdem(p store.IssueParams, idem *store.Idempotency) store.IssueParams {
	p.Idem = idem
	return p
}
