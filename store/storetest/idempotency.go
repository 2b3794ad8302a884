package storetest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

var idempotencyTests = []test{
	{"ClaimReplay", testIdemClaimReplay},
	{"TransitionReplay", testIdemTransitionReplay},
	{"Conflict", testIdemConflict},
	{"RefusalKept", testIdemRefusalKept},
	{"RefusalNotKept", testIdemRefusalNotKept},
	{"LatePaymentKept", testIdemLatePayment},
	{"ConcurrentDuplicates", testIdemConcurrent},
	{"ConcurrentRefusals", testIdemConcurrentRefusals},
	{"Expired", testIdemExpired},
	{"Prune", testIdemPrune},
	{"Scoped", testIdemScoped},
}

// scopedIdem is the key of a request in the suite's one scope.
func scopedIdem(key string, now time.Time) *store.Idempotency {
	return &store.Idempotency{Key: key, Scope: "POST /suite", Fingerprint: "fp", Now: now}
}

// claimUnder claims a coupon of tplID for user at now under the
// idempotency key key (scopedIdem).
func (f *fixture) claimUnder(tplID, user, key string, now time.Time) (coupon.Coupon, error) {
	return f.s.Claim(f.ctx, store.ClaimParams{TemplateID: tplID, UserID: user, Now: now, Idem: scopedIdem(key, now)})
}

// wantReplay fails unless err replays want, the first attempt's result,
// as recorded at the first attempt's now.
func (f *fixture) wantReplay(what string, err error, want any, at time.Time) {
	f.t.Helper()
	var re *store.ReplayError
	if !errors.As(err, &re) {
		f.t.Fatalf("%s: got error %v, want a replay", what, err)
	}
	b, merr := json.Marshal(want)
	if merr != nil {
		f.t.Fatalf("%s: %v", what, merr)
	}
	if !bytes.Equal(re.Result, b) || !re.At.Equal(at) {
		f.t.Fatalf("%s: replayed %s at %s, want %s at %s", what, re.Result, fmtTime(re.At), b, fmtTime(at))
	}
}

// wantKept fails unless err replays the kept refusal want.
func (f *fixture) wantKept(what string, err, want error) {
	f.t.Helper()
	var kept *store.Replayed
	if !errors.As(err, &kept) || !errors.Is(err, want) {
		f.t.Fatalf("%s: got %v, want the kept refusal %v replayed", what, err, want)
	}
}

// testIdemClaimReplay: a retried claim replays the first result and
// issues nothing more.
func testIdemClaimReplay(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(nil)
	c, err := f.claimUnder(tp.ID, "u1", "k1", t0)
	if err != nil {
		t.Fatalf("first claim: %v", err)
	}
	before := f.snap(tp.ID, "u1", t0)
	for _, now := range []time.Time{t0, t0.Add(time.Minute)} {
		_, err := f.claimUnder(tp.ID, "u1", "k1", now)
		f.wantReplay("retry", err, c, t0)
		f.unchanged("retry", tp.ID, "u1", now, before)
	}
	// Another key is another request.
	if _, err := f.claimUnder(tp.ID, "u1", "k2", t0); err != nil {
		t.Fatalf("claim under another key: %v", err)
	}
	f.wantHolds("coupons after a claim under another key", "u1", t0, 2)
}

// testIdemTransitionReplay: a retried lock replays its first result
// instead of being refused as a lock of a locked coupon.
func testIdemTransitionReplay(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(nil)
	c := f.claim(tp.ID, "u1", t0)
	p := lock("o1", t0.Add(time.Minute), 15*time.Minute)
	p.CouponID, p.Idem = c.ID, scopedIdem("lock-1", t0.Add(time.Minute))
	locked, err := f.s.Transition(f.ctx, p)
	if err != nil {
		t.Fatalf("first lock: %v", err)
	}
	before := f.snap(tp.ID, "u1", p.Now)
	_, err = f.s.Transition(f.ctx, p)
	f.wantReplay("retried lock", err, locked, p.Now)
	f.wantCoupon("after the retry", f.coupon(c.ID), locked)
	f.unchanged("retried lock", tp.ID, "u1", p.Now, before)
}

// testIdemConflict: a key reused for another request is refused and the
// request does not run.
func testIdemConflict(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(nil)
	if _, err := f.claimUnder(tp.ID, "u1", "k1", t0); err != nil {
		t.Fatalf("first claim: %v", err)
	}
	before := f.snap(tp.ID, "u2", t0)
	other := scopedIdem("k1", t0)
	other.Fingerprint = "fp2"
	_, err := f.s.Claim(f.ctx, store.ClaimParams{TemplateID: tp.ID, UserID: "u2", Now: t0, Idem: other})
	f.wantErr("same key, other fingerprint", err, storetype.ErrIdempotencyConflict)
	f.unchanged("conflicting claim", tp.ID, "u2", t0, before)
}

// testIdemRefusalKept: a refusal for the state of things (not claimable,
// sold out) is the key's answer: its retry replays it, even once the
// request would succeed, and changes nothing.
func testIdemRefusalKept(t *testing.T, open opener) {
	f := newFixture(t, open)
	start := t0.Add(time.Hour)
	tp := f.template(func(tp *coupon.Template) { tp.StartsAt = start; tp.Total = 1 })
	claim := func(key, user string, now time.Time) error {
		_, err := f.claimUnder(tp.ID, user, key, now)
		return err
	}
	f.wantErr("claim before starts_at", claim("early", "u1", t0), coupon.ErrNotClaimable)
	before := f.snap(tp.ID, "u1", start)
	f.wantKept("retry once claimable", claim("early", "u1", start), coupon.ErrNotClaimable)
	f.unchanged("retry once claimable", tp.ID, "u1", start, before)
	if err := claim("first", "u2", start); err != nil {
		t.Fatalf("claim of the one coupon: %v", err)
	}
	f.wantErr("sold-out claim", claim("late", "u3", start), coupon.ErrSoldOut)
	f.wantKept("retried sold-out claim", claim("late", "u3", start), coupon.ErrSoldOut)
}

// testIdemRefusalNotKept: a refusal a retry may get past (a template not
// found, say) leaves the key unused: its retry runs again, and its
// success is then the key's answer.
func testIdemRefusalNotKept(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(nil)
	claim := func(templateID string) (coupon.Coupon, error) {
		return f.claimUnder(templateID, "u1", "k", t0)
	}
	_, err := claim("tpl_missing")
	f.wantErr("claim of no template", err, storetype.ErrNotFound)
	c, err := claim(tp.ID)
	if err != nil {
		t.Fatalf("retry: got %v, want a coupon", err)
	}
	_, err = claim(tp.ID)
	f.wantReplay("retry of the success", err, c, t0)
}

// closedOrder opens an order fixture with an order closed on timeout, and
// returns them with the params of a payment of it at its deadline.
func closedOrder(t *testing.T, open opener) (*orderFixture, order.Order, store.PayOrderParams) {
	t.Helper()
	f := newOrderFixture(t, open)
	o := f.create()
	if _, err := f.s.CloseDueOrders(f.ctx, storetype.DueParams{Now: o.Deadline, Limit: 10}); err != nil {
		t.Fatalf("CloseDueOrders: %v", err)
	}
	return f, o, store.PayOrderParams{OrderID: o.ID, PaymentID: "p-late", Amount: o.AmountDue, Now: o.Deadline}
}

// testIdemLatePayment: a payment to a closed order under a key is refused
// with order.ErrClosed and recorded as one order.late_payment event, with
// the refusal kept: its retries replay it and record nothing more.
func testIdemLatePayment(t *testing.T, open opener) {
	f, o, p := closedOrder(t, open)
	p.Idem = scopedIdem("pay", p.Now)
	_, err := f.s.PayOrder(f.ctx, p)
	f.wantErr("pay a closed order", err, order.ErrClosed)
	if late := f.eventsOfType(o.ID, store.EventOrderLatePayment); len(late) != 1 {
		t.Fatalf("order.late_payment events: got %d, want 1", len(late))
	}
	before := f.events()
	for i := range 2 {
		p.Now = p.Now.Add(time.Minute)
		p.Idem = scopedIdem("pay", p.Now)
		_, err := f.s.PayOrder(f.ctx, p)
		f.wantKept("retried late payment", err, order.ErrClosed)
		if after := f.events(); len(after) != len(before) {
			t.Fatalf("events after retry %d: got %s, want %s", i, fmtEvents(after), fmtEvents(before))
		}
	}
}

// concurrently runs call n times at once and returns what each answered:
// the JSON of its own result or the one replayed, or its error's text.
func concurrently[T any](t *testing.T, n int, call func() (T, error)) [][]byte {
	t.Helper()
	bodies := make([][]byte, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			<-start
			res, err := call()
			var replay *store.ReplayError
			switch {
			case errors.As(err, &replay):
				bodies[i] = replay.Result
			case err != nil:
				bodies[i] = []byte(err.Error())
			default:
				bodies[i], _ = json.Marshal(res)
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
// all answered the first one's result, and make one coupon.
func testIdemConcurrent(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(nil)
	bodies := concurrently(t, concurrentRequests, func() (coupon.Coupon, error) {
		return f.claimUnder(tp.ID, "u1", "k", t0)
	})
	cs := f.userCoupons("u1", 0, t0)
	if len(cs) != 1 {
		t.Fatalf("coupons after %d identical claims: got %d, want 1", concurrentRequests, len(cs))
	}
	want, _ := json.Marshal(f.coupon(cs[0].ID))
	wantOneBody(t, "identical claims", bodies, want)
}

// testIdemConcurrentRefusals: identical payments to a closed order sent
// at once under one key are all answered the first refusal, and record
// one late payment.
func testIdemConcurrentRefusals(t *testing.T, open opener) {
	f, o, p := closedOrder(t, open)
	p.Idem = scopedIdem("pay", p.Now)
	bodies := concurrently(t, concurrentRequests, func() (order.Order, error) { return f.s.PayOrder(f.ctx, p) })
	wantOneBody(t, "identical late payments", bodies, []byte(order.ErrClosed.Error()))
	if late := f.eventsOfType(o.ID, store.EventOrderLatePayment); len(late) != 1 {
		t.Fatalf("order.late_payment events: got %d, want 1", len(late))
	}
}

// testIdemExpired: a key holds its request for its TTL; from then on it
// is unknown, and a request under it runs anew and is recorded.
func testIdemExpired(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(nil)
	claim := func(now time.Time) (coupon.Coupon, error) {
		idem := scopedIdem("k", now)
		idem.TTL = time.Hour
		return f.s.Claim(f.ctx, store.ClaimParams{TemplateID: tp.ID, UserID: "u1", Now: now, Idem: idem})
	}
	first, err := claim(t0)
	if err != nil {
		t.Fatalf("first claim: %v", err)
	}
	_, err = claim(t0.Add(time.Hour - time.Millisecond))
	f.wantReplay("retry within the TTL", err, first, t0)
	second, err := claim(t0.Add(time.Hour))
	if err != nil {
		t.Fatalf("claim once the key expired: got %v, want a new coupon", err)
	}
	if second.ID == first.ID {
		t.Fatalf("claim once the key expired: got the first coupon %s again", first.ID)
	}
	_, err = claim(t0.Add(90 * time.Minute))
	f.wantReplay("retry of the new request", err, second, t0.Add(time.Hour))
}

// testIdemPrune: PruneRequests deletes the requests recorded at or before
// its instant, oldest first and at most its limit, and no other.
func testIdemPrune(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(nil)
	var kept coupon.Coupon
	for i, key := range []string{"a", "b", "c"} {
		c, err := f.claimUnder(tp.ID, "u1", key, t0.Add(time.Duration(i)*time.Minute))
		if err != nil {
			t.Fatalf("claim under %s: %v", key, err)
		}
		kept = c
	}
	for _, want := range []int64{1, 1, 0} {
		n, err := f.s.PruneRequests(f.ctx, storetype.PruneRequestsParams{Before: t0.Add(time.Minute), Limit: 1})
		if err != nil || n != want {
			t.Fatalf("PruneRequests: got %d, %v; want %d", n, err, want)
		}
	}
	now := t0.Add(3 * time.Minute) // within every key's TTL
	_, err := f.claimUnder(tp.ID, "u1", "c", now)
	f.wantReplay("retry under the key left", err, kept, t0.Add(2*time.Minute))
	if _, err := f.claimUnder(tp.ID, "u1", "a", now); err != nil {
		t.Fatalf("claim under a pruned key: got %v, want a new coupon", err)
	}
	f.wantHolds("coupons", "u1", now, 4)
}

// testIdemScoped: one key in two scopes is two keys, each with its own
// request, even of one fingerprint.
func testIdemScoped(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(nil)
	claim := func(user string) (coupon.Coupon, error) {
		idem := scopedIdem("k", t0)
		idem.Scope = "POST /v1/users/" + user + "/coupons"
		return f.s.Claim(f.ctx, store.ClaimParams{TemplateID: tp.ID, UserID: user, Now: t0, Idem: idem})
	}
	for _, user := range []string{"u1", "u2"} {
		c, err := claim(user)
		if err != nil {
			t.Fatalf("claim for %s: %v", user, err)
		}
		_, err = claim(user)
		f.wantReplay("retry for "+user, err, c, t0)
	}
}

// inFlight opens a store with newStore and leaves in it, in flight under
// its key, a bulk issuance that died after its first batch (its context
// is cancelled from the commit hook). It returns the fixture, the
// issuance's Idempotency, and finish, which retries it to the end.
func inFlight(t *testing.T, newDriver NewDriver) (*fixture, *store.Idempotency, func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	t.Cleanup(cancel)
	var commits atomic.Int64
	s := open(t, newDriver, store.Hooks{OnEvents: func([]storetype.Event) {
		if commits.Add(1) == 1 {
			cancel()
		}
	}})
	f := &fixture{t: t, s: s, ctx: t.Context()}
	tp := f.template(nil)
	idem := scopedIdem("bulk", t0)
	p := store.IssueParams{TemplateID: tp.ID, Users: store.UserList(users(4)), Now: t0, BatchSize: 2, Idem: idem}
	if _, err := s.Issue(ctx, p); !errors.Is(err, context.Canceled) {
		t.Fatalf("issuance: got %v, want it cut off after its first batch", err)
	}
	return f, idem, func() error {
		_, err := s.Issue(f.ctx, p)
		return err
	}
}

// runIdempotencyWait checks that a request under a key that holds the
// same request in flight (here a bulk issuance cut off, with the same
// fingerprint) waits for that request's result instead of running, and
// is answered it once the issuance is finished. newDriver is as for Run.
func runIdempotencyWait(t *testing.T, newDriver NewDriver) {
	f, idem, finish := inFlight(t, newDriver)
	tp := f.template(nil)
	answer := make(chan error, 1)
	go func() {
		_, err := f.s.Claim(f.ctx, store.ClaimParams{TemplateID: tp.ID, UserID: "u9", Now: t0, Idem: idem})
		answer <- err
	}()
	time.Sleep(100 * time.Millisecond) // for the claim to find the issuance in flight
	if err := finish(); err != nil {
		t.Fatalf("finish the issuance: %v", err)
	}
	f.wantReplay("request that waited", <-answer, store.Issued{Issued: 4}, t0)
	f.wantHolds("the request that waited ran", "u9", t0, 0)
}

// RunIdempotencyWaitBounded checks that a request under a key that holds
// the same request in flight, which nothing finishes, waits
// store.RequestWait for it and is then answered ErrIdempotencyConflict.
// Run it in a testing/synctest bubble, or it takes that long. newDriver
// is as for Run.
func RunIdempotencyWaitBounded(t *testing.T, newDriver NewDriver) {
	f, idem, _ := inFlight(t, newDriver)
	tp := f.template(nil)
	start := time.Now()
	_, err := f.s.Claim(f.ctx, store.ClaimParams{TemplateID: tp.ID, UserID: "u9", Now: t0, Idem: idem})
	f.wantErr("request waiting for one in flight", err, storetype.ErrIdempotencyConflict)
	if waited := time.Since(start); waited < store.RequestWait {
		t.Fatalf("answered after %s, want after %s", waited, store.RequestWait)
	}
	f.wantHolds("the request that waited ran", "u9", t0, 0)
}
