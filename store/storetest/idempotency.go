package storetest

import (
	"bytes"
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/store"
)

var idempotencyTests = []test{
	{"ClaimReplay", testIdemClaimReplay},
	{"TransitionReplay", testIdemTransitionReplay},
	{"Conflict", testIdemConflict},
	{"FailureStoresNothing", testIdemFailure},
	{"EmptyBody", testIdemEmptyBody},
	{"RefusalKept", testIdemRefusalKept},
	{"RefusalNotKept", testIdemRefusalNotKept},
	{"LatePaymentKept", testIdemLatePayment},
	{"ConcurrentDuplicates", testIdemConcurrent},
	{"ConcurrentRefusals", testIdemConcurrentRefusals},
	{"Expired", testIdemExpired},
	{"Prune", testIdemPrune},
	{"Scoped", testIdemScoped},
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

// refusals renders a refusal as 409 and its text, keeps it if keep says
// so, and counts its calls.
type refusals struct {
	mu    sync.Mutex
	calls int
	keep  bool
}

func (r *refusals) render(err error) (int, []byte, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls++
	return 409, []byte("refused: " + err.Error()), r.keep
}

// refusedBody is the body refusals renders for err.
func refusedBody(err error) []byte { return []byte("refused: " + err.Error()) }

// scopedIdem is the Idempotency of a request under key in the suite's
// one scope, whose successes r renders and whose refusals rf renders.
func scopedIdem(key string, now time.Time, r *renderer, rf *refusals) store.Idempotency {
	return store.Idempotency{Key: key, Scope: "POST /suite", Fingerprint: "fp", Now: now, Render: r.render, RenderError: rf.render}
}

// testIdemRefusalKept: a refusal RenderError keeps is the key's response:
// its retry replays it, even once the request would succeed.
func testIdemRefusalKept(t *testing.T, open opener) {
	f := newFixture(t, open)
	start := t0.Add(time.Hour)
	tp := f.template(func(tp *coupon.Template) { tp.StartsAt = start })
	r, rf := &renderer{status: 201}, &refusals{keep: true}
	claim := func(now time.Time) error {
		_, err := f.s.Claim(store.WithIdempotency(f.ctx, scopedIdem("early", now, r, rf)),
			store.ClaimParams{TemplateID: tp.ID, UserID: "u1", Now: now})
		return err
	}
	f.wantErr("claim before starts_at", claim(t0), coupon.ErrNotClaimable)
	before := f.snap(tp.ID, "u1", start)
	f.wantReplay("retry once claimable", claim(start), 409, refusedBody(coupon.ErrNotClaimable))
	f.unchanged("retry once claimable", tp.ID, "u1", start, before)
	if r.calls != 0 || rf.calls != 1 {
		t.Fatalf("Render calls %d, RenderError calls %d: want 0 and 1", r.calls, rf.calls)
	}
}

// testIdemRefusalNotKept: a refusal RenderError does not keep (an invalid
// request, say) leaves the key unused: its retry runs again.
func testIdemRefusalNotKept(t *testing.T, open opener) {
	f := newFixture(t, open)
	start := t0.Add(time.Hour)
	tp := f.template(func(tp *coupon.Template) { tp.StartsAt = start })
	r, rf := &renderer{status: 201}, &refusals{keep: false}
	ctx := func(now time.Time) context.Context {
		return store.WithIdempotency(f.ctx, scopedIdem("early", now, r, rf))
	}
	_, err := f.s.Claim(ctx(t0), store.ClaimParams{TemplateID: tp.ID, UserID: "u1", Now: t0})
	f.wantErr("claim before starts_at", err, coupon.ErrNotClaimable)
	c, err := f.s.Claim(ctx(start), store.ClaimParams{TemplateID: tp.ID, UserID: "u1", Now: start})
	if err != nil {
		t.Fatalf("retry once claimable: got %v, want a coupon", err)
	}
	_, err = f.s.Claim(ctx(start), store.ClaimParams{TemplateID: tp.ID, UserID: "u1", Now: start})
	f.wantReplay("retry of the success", err, 201, []byte(c.ID+"@unused"))
	if rf.calls != 1 {
		t.Fatalf("RenderError calls: got %d, want 1", rf.calls)
	}
}

// closedOrder opens an order fixture with an order closed on timeout, and
// returns them with the params of a payment of it at its deadline.
func closedOrder(t *testing.T, open opener) (*orderFixture, order.Order, store.PayOrderParams) {
	t.Helper()
	f := newOrderFixture(t, open)
	o := f.create()
	if _, err := f.s.CloseDueOrders(f.ctx, store.DueParams{Now: o.Deadline, Limit: 10}); err != nil {
		t.Fatalf("CloseDueOrders: %v", err)
	}
	return f, o, store.PayOrderParams{OrderID: o.ID, PaymentID: "p-late", Amount: o.AmountDue, Now: o.Deadline}
}

// testIdemLatePayment: a payment to a closed order under a key is refused
// with order.ErrClosed and recorded as one order.late_payment event, with
// the refusal kept: its retries replay it and record nothing more.
func testIdemLatePayment(t *testing.T, open opener) {
	f, o, p := closedOrder(t, open)
	r, rf := &renderer{status: 200}, &refusals{keep: true}
	_, err := f.s.PayOrder(store.WithIdempotency(f.ctx, scopedIdem("pay", p.Now, r, rf)), p)
	f.wantErr("pay a closed order", err, order.ErrClosed)
	if late := f.eventsOfType(o.ID, store.EventOrderLatePayment); len(late) != 1 {
		t.Fatalf("order.late_payment events: got %d, want 1", len(late))
	}
	body := refusedBody(err)
	before := f.events()
	for i := range 2 {
		p.Now = p.Now.Add(time.Minute)
		_, err := f.s.PayOrder(store.WithIdempotency(f.ctx, scopedIdem("pay", p.Now, r, rf)), p)
		f.wantReplay("retried late payment", err, 409, body)
		if after := f.events(); len(after) != len(before) {
			t.Fatalf("events after retry %d: got %s, want %s", i, fmtEvents(after), fmtEvents(before))
		}
	}
	if rf.calls != 1 {
		t.Fatalf("RenderError calls: got %d, want 1", rf.calls)
	}
}

// concurrently runs call n times at once and returns what each answered:
// the body of its own response (rendered by body) or of the one replayed.
func concurrently[T any](t *testing.T, n int, call func() (T, error), body func(T, error) []byte) [][]byte {
	t.Helper()
	bodies := make([][]byte, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			<-start
			res, err := call()
			var replay *store.ReplayError
			if errors.As(err, &replay) {
				bodies[i] = replay.Body
			} else {
				bodies[i] = body(res, err)
			}
		})
	}
	close(start)
	wg.Wait()
	return bodies
}

// wantOneBody fails unless every body is want.
func wantOneBody(t *testing.T, what string, bodies [][]byte, want []byte) {
	t.Helper()
	for i, b := range bodies {
		if !bytes.Equal(b, want) {
			t.Fatalf("%s: request %d answered %q, want %q", what, i, b, want)
		}
	}
}

// concurrentRequests is how many identical requests the concurrency
// tests send at once.
const concurrentRequests = 24

// testIdemConcurrent: identical requests sent at once under one key are
// all answered the first one's response, and make one coupon.
func testIdemConcurrent(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(nil)
	var mu sync.Mutex
	r, rf := &renderer{status: 201}, &refusals{keep: true}
	idem := scopedIdem("k", t0, r, rf)
	idem.Render = func(res any) (int, []byte) { // concurrent calls
		mu.Lock()
		defer mu.Unlock()
		return r.render(res)
	}
	ctx := store.WithIdempotency(f.ctx, idem)
	bodies := concurrently(t, concurrentRequests, func() (coupon.Coupon, error) {
		return f.s.Claim(ctx, store.ClaimParams{TemplateID: tp.ID, UserID: "u1", Now: t0})
	}, func(c coupon.Coupon, err error) []byte {
		if err != nil {
			return []byte(err.Error())
		}
		return []byte(c.ID + "@" + c.Status.String())
	})
	cs := f.userCoupons("u1", 0, t0)
	if len(cs) != 1 {
		t.Fatalf("coupons after %d identical claims: got %d, want 1", concurrentRequests, len(cs))
	}
	wantOneBody(t, "identical claims", bodies, []byte(cs[0].ID+"@unused"))
	if rf.calls != 0 {
		t.Fatalf("RenderError calls: got %d, want 0", rf.calls)
	}
}

// testIdemConcurrentRefusals: identical payments to a closed order sent
// at once under one key are all answered the first refusal, and record
// one late payment.
func testIdemConcurrentRefusals(t *testing.T, open opener) {
	f, o, p := closedOrder(t, open)
	ctx := store.WithIdempotency(f.ctx, scopedIdem("pay", p.Now, &renderer{status: 200}, &refusals{keep: true}))
	bodies := concurrently(t, concurrentRequests, func() (order.Order, error) { return f.s.PayOrder(ctx, p) },
		func(_ order.Order, err error) []byte {
			if err == nil {
				return []byte("paid")
			}
			return refusedBody(err)
		})
	wantOneBody(t, "identical late payments", bodies, refusedBody(&store.RefusalError{Err: order.ErrClosed}))
	if late := f.eventsOfType(o.ID, store.EventOrderLatePayment); len(late) != 1 {
		t.Fatalf("order.late_payment events: got %d, want 1", len(late))
	}
}

// testIdemExpired: a key holds its request for its TTL; from then on it
// is unknown, and a request under it runs anew and is recorded.
func testIdemExpired(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(nil)
	r, rf := &renderer{status: 201}, &refusals{keep: true}
	claim := func(now time.Time) (coupon.Coupon, error) {
		idem := scopedIdem("k", now, r, rf)
		idem.TTL = time.Hour
		return f.s.Claim(store.WithIdempotency(f.ctx, idem), store.ClaimParams{TemplateID: tp.ID, UserID: "u1", Now: now})
	}
	first, err := claim(t0)
	if err != nil {
		t.Fatalf("first claim: %v", err)
	}
	_, err = claim(t0.Add(time.Hour - time.Millisecond))
	f.wantReplay("retry within the TTL", err, 201, []byte(first.ID+"@unused"))
	second, err := claim(t0.Add(time.Hour))
	if err != nil {
		t.Fatalf("claim once the key expired: got %v, want a new coupon", err)
	}
	if second.ID == first.ID {
		t.Fatalf("claim once the key expired: got the first coupon %s again", first.ID)
	}
	_, err = claim(t0.Add(90 * time.Minute))
	f.wantReplay("retry of the new request", err, 201, []byte(second.ID+"@unused"))
}

// testIdemPrune: PruneRequests deletes the requests recorded at or before
// its instant, oldest first and at most its limit, and no other.
func testIdemPrune(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(nil)
	r, rf := &renderer{status: 201}, &refusals{keep: true}
	claim := func(key string, now time.Time) (coupon.Coupon, error) {
		return f.s.Claim(store.WithIdempotency(f.ctx, scopedIdem(key, now, r, rf)), store.ClaimParams{TemplateID: tp.ID, UserID: "u1", Now: now})
	}
	var kept coupon.Coupon
	for i, key := range []string{"a", "b", "c"} {
		c, err := claim(key, t0.Add(time.Duration(i)*time.Minute))
		if err != nil {
			t.Fatalf("claim under %s: %v", key, err)
		}
		kept = c
	}
	for _, want := range []int64{1, 1, 0} {
		n, err := f.s.PruneRequests(f.ctx, store.PruneRequestsParams{Before: t0.Add(time.Minute), Limit: 1})
		if err != nil || n != want {
			t.Fatalf("PruneRequests: got %d, %v; want %d", n, err, want)
		}
	}
	now := t0.Add(3 * time.Minute) // within every key's TTL
	_, err := claim("c", now)
	f.wantReplay("retry under the key left", err, 201, []byte(kept.ID+"@unused"))
	if _, err := claim("a", now); err != nil {
		t.Fatalf("claim under a pruned key: got %v, want a new coupon", err)
	}
	if cs := f.userCoupons("u1", 0, now); len(cs) != 4 {
		t.Fatalf("coupons: got %d, want 4", len(cs))
	}
}

// testIdemScoped: one key in two scopes is two keys, each with its own
// request, even of one fingerprint.
func testIdemScoped(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(nil)
	r, rf := &renderer{status: 201}, &refusals{keep: true}
	claim := func(user string) (coupon.Coupon, error) {
		idem := scopedIdem("k", t0, r, rf)
		idem.Scope = "POST /v1/users/" + user + "/coupons"
		return f.s.Claim(store.WithIdempotency(f.ctx, idem), store.ClaimParams{TemplateID: tp.ID, UserID: user, Now: t0})
	}
	for _, user := range []string{"u1", "u2"} {
		c, err := claim(user)
		if err != nil {
			t.Fatalf("claim for %s: %v", user, err)
		}
		_, err = claim(user)
		f.wantReplay("retry for "+user, err, 201, []byte(c.ID+"@unused"))
	}
}

// inFlight opens a store with newStore and leaves in it, in flight under
// its key, a bulk issuance that died after its first batch (its context
// is cancelled from the commit hook). It returns the fixture, the
// issuance's Idempotency, and finish, which retries it to the end.
func inFlight(t *testing.T, newDriver NewDriver) (*fixture, store.Idempotency, func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	t.Cleanup(cancel)
	var commits atomic.Int64
	s := open(t, newDriver, store.Hooks{OnEvents: func([]store.Event) {
		if commits.Add(1) == 1 {
			cancel()
		}
	}})
	f := &fixture{t: t, s: s, ctx: t.Context()}
	tp := f.template(nil)
	idem := store.Idempotency{Key: "bulk", Scope: "POST /suite", Fingerprint: "fp", Now: t0,
		Render: func(any) (int, []byte) { return 200, []byte("issued") }}
	p := store.IssueParams{TemplateID: tp.ID, Users: store.UserList(users(4)), Now: t0, BatchSize: 2}
	if _, err := s.Issue(store.WithIdempotency(ctx, idem), p); !errors.Is(err, context.Canceled) {
		t.Fatalf("issuance: got %v, want it cut off after its first batch", err)
	}
	return f, idem, func() error {
		_, err := s.Issue(store.WithIdempotency(f.ctx, idem), p)
		return err
	}
}

// RunIdempotencyWait checks that a request under a key that holds the
// same request in flight (here a bulk issuance cut off, with the same
// fingerprint) waits for that request's response instead of running, and
// is answered it once the issuance is finished. newDriver is as for
// RunHooks.
func RunIdempotencyWait(t *testing.T, newDriver NewDriver) {
	f, idem, finish := inFlight(t, newDriver)
	tp := f.template(nil)
	answer := make(chan error, 1)
	go func() {
		_, err := f.s.Claim(store.WithIdempotency(f.ctx, idem), store.ClaimParams{TemplateID: tp.ID, UserID: "u9", Now: t0})
		answer <- err
	}()
	time.Sleep(100 * time.Millisecond) // for the claim to find the issuance in flight
	if err := finish(); err != nil {
		t.Fatalf("finish the issuance: %v", err)
	}
	f.wantReplay("request that waited", <-answer, 200, []byte("issued"))
	if cs := f.userCoupons("u9", 0, t0); len(cs) != 0 {
		t.Fatalf("the request that waited ran: u9 holds %d coupons", len(cs))
	}
}

// RunIdempotencyWaitBounded checks that a request under a key that holds
// the same request in flight, which nothing finishes, waits
// store.RequestWait for it and is then answered ErrIdempotencyConflict.
// Run it in a testing/synctest bubble, or it takes that long. newStore is
// as for RunHooks.
func RunIdempotencyWaitBounded(t *testing.T, newDriver NewDriver) {
	f, idem, _ := inFlight(t, newDriver)
	tp := f.template(nil)
	start := time.Now()
	_, err := f.s.Claim(store.WithIdempotency(f.ctx, idem), store.ClaimParams{TemplateID: tp.ID, UserID: "u9", Now: t0})
	f.wantErr("request waiting for one in flight", err, store.ErrIdempotencyConflict)
	if waited := time.Since(start); waited < store.RequestWait {
		t.Fatalf("answered after %s, want after %s", waited, store.RequestWait)
	}
	if cs := f.userCoupons("u9", 0, t0); len(cs) != 0 {
		t.Fatalf("the request that waited ran: u9 holds %d coupons", len(cs))
	}
}
