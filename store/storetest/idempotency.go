package storetest

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/store"
)

var idempotencyTests = []test{
	{"ClaimReplay", testIdemClaimReplay},
	{"TransitionReplay", testIdemTransitionReplay},
	{"Conflict", testIdemConflict},
	{"FailureStoresNothing", testIdemFailure},
	{"EmptyBody", testIdemEmptyBody},
}

// renderer counts its calls and renders a coupon as its ID.
type renderer struct {
	calls  int
	status int
}

func (r *renderer) render(result any) (int, []byte) {
	r.calls++
	c, ok := result.(coupon.Coupon)
	if !ok {
		return 500, []byte("not a coupon")
	}
	return r.status, []byte(c.ID + "@" + c.Status.String())
}

func (f *fixture) idem(key, fingerprint string, now time.Time, r *renderer) context.Context {
	return store.WithIdempotency(f.ctx, store.Idempotency{Key: key, Fingerprint: fingerprint, Now: now, Render: r.render})
}

// wantReplay fails unless err is a *store.ReplayError of status and body.
func (f *fixture) wantReplay(what string, err error, status int, body []byte) {
	f.t.Helper()
	var re *store.ReplayError
	if !errors.As(err, &re) {
		f.t.Fatalf("%s: got error %v, want a replay", what, err)
	}
	if re.Status != status || !bytes.Equal(re.Body, body) {
		f.t.Fatalf("%s: replayed %d %q, want %d %q", what, re.Status, re.Body, status, body)
	}
}

// testIdemClaimReplay: a retried claim replays the first response and
// issues nothing more.
func testIdemClaimReplay(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(nil)
	r := &renderer{status: 201}
	c, err := f.s.Claim(f.idem("k1", "fp1", t0, r), store.ClaimParams{TemplateID: tp.ID, UserID: "u1", Now: t0})
	if err != nil {
		t.Fatalf("first claim: %v", err)
	}
	if r.calls != 1 {
		t.Fatalf("Render calls after the first claim: got %d, want 1", r.calls)
	}
	body := []byte(c.ID + "@unused")
	before := f.snap(tp.ID, "u1", t0)
	for i, now := range []time.Time{t0, t0.Add(time.Minute)} {
		_, err := f.s.Claim(f.idem("k1", "fp1", now, r), store.ClaimParams{TemplateID: tp.ID, UserID: "u1", Now: now})
		f.wantReplay("retry", err, 201, body)
		if r.calls != 1 {
			t.Fatalf("Render calls after retry %d: got %d, want 1", i, r.calls)
		}
		f.unchanged("retry", tp.ID, "u1", now, before)
	}
	// Another key is another request.
	if _, err := f.s.Claim(f.idem("k2", "fp1", t0, r), store.ClaimParams{TemplateID: tp.ID, UserID: "u1", Now: t0}); err != nil {
		t.Fatalf("claim under another key: %v", err)
	}
	if cs := f.userCoupons("u1", 0, t0); len(cs) != 2 {
		t.Fatalf("coupons after a claim under another key: got %d, want 2", len(cs))
	}
}

// testIdemTransitionReplay: a retried lock replays its first response
// instead of being refused as a lock of a locked coupon.
func testIdemTransitionReplay(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(nil)
	c := f.claim(tp.ID, "u1", t0)
	r := &renderer{status: 200}
	p := lock("o1", t0.Add(time.Minute), 15*time.Minute)
	p.CouponID = c.ID
	locked, err := f.s.Transition(f.idem("lock-1", "fp", p.Now, r), p)
	if err != nil {
		t.Fatalf("first lock: %v", err)
	}
	before := f.snap(tp.ID, "u1", p.Now)
	_, err = f.s.Transition(f.idem("lock-1", "fp", p.Now, r), p)
	f.wantReplay("retried lock", err, 200, []byte(c.ID+"@locked"))
	f.wantCoupon("after the retry", f.coupon(c.ID), locked)
	f.unchanged("retried lock", tp.ID, "u1", p.Now, before)
}

// testIdemConflict: a key reused for another request is refused and the
// request does not run.
func testIdemConflict(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(nil)
	r := &renderer{status: 201}
	if _, err := f.s.Claim(f.idem("k1", "fp1", t0, r), store.ClaimParams{TemplateID: tp.ID, UserID: "u1", Now: t0}); err != nil {
		t.Fatalf("first claim: %v", err)
	}
	before := f.snap(tp.ID, "u2", t0)
	_, err := f.s.Claim(f.idem("k1", "fp2", t0, r), store.ClaimParams{TemplateID: tp.ID, UserID: "u2", Now: t0})
	f.wantErr("same key, other fingerprint", err, store.ErrIdempotencyConflict)
	f.unchanged("conflicting claim", tp.ID, "u2", t0, before)
	if r.calls != 1 {
		t.Fatalf("Render calls: got %d, want 1", r.calls)
	}
}

// testIdemFailure: a refused mutation stores no response, so its retry
// runs again.
func testIdemFailure(t *testing.T, open opener) {
	f := newFixture(t, open)
	start := t0.Add(time.Hour)
	tp := f.template(func(tp *coupon.Template) { tp.StartsAt = start; tp.Total = 1 })
	r := &renderer{status: 201}

	// Not yet claimable; the retry once the window opens succeeds.
	_, err := f.s.Claim(f.idem("early", "fp", t0, r), store.ClaimParams{TemplateID: tp.ID, UserID: "u1", Now: t0})
	f.wantErr("claim before starts_at", err, coupon.ErrNotClaimable)
	if r.calls != 0 {
		t.Fatalf("Render calls after a refusal: got %d, want 0", r.calls)
	}
	c, err := f.s.Claim(f.idem("early", "fp", start, r), store.ClaimParams{TemplateID: tp.ID, UserID: "u1", Now: start})
	if err != nil {
		t.Fatalf("retry once claimable: got %v, want a coupon", err)
	}

	// Sold out; the retry runs again and is refused again, not replayed.
	for i := range 2 {
		before := f.snap(tp.ID, "u2", start)
		_, err := f.s.Claim(f.idem("late", "fp", start, r), store.ClaimParams{TemplateID: tp.ID, UserID: "u2", Now: start})
		f.wantErr("sold-out claim", err, coupon.ErrSoldOut)
		f.unchanged("sold-out claim", tp.ID, "u2", start, before)
		if r.calls != 1 {
			t.Fatalf("Render calls after sold-out claim %d: got %d, want 1", i, r.calls)
		}
	}
	// Freed by nothing: the earlier success still replays.
	_, err = f.s.Claim(f.idem("early", "fp", start, r), store.ClaimParams{TemplateID: tp.ID, UserID: "u1", Now: start})
	f.wantReplay("retry of the success", err, 201, []byte(c.ID+"@unused"))
}

// testIdemEmptyBody: a response without a body (204, say) is stored and
// replayed like any other.
func testIdemEmptyBody(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(nil)
	c := f.claim(tp.ID, "u1", t0)
	ctx := store.WithIdempotency(f.ctx, store.Idempotency{
		Key: "void-1", Fingerprint: "fp", Now: t0,
		Render: func(any) (int, []byte) { return 204, nil },
	})
	p := act(coupon.Void, "", t0.Add(time.Minute))
	p.CouponID = c.ID
	if _, err := f.s.Transition(ctx, p); err != nil {
		t.Fatalf("void with an empty response: %v", err)
	}
	_, err := f.s.Transition(ctx, p)
	f.wantReplay("retried void", err, 204, nil)
}
