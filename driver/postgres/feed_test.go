package postgres_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver/postgres"
	"github.com/lapsehq/lapse/driver/postgres/pgtest"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/store/storetest"
	"github.com/lapsehq/lapse/storetype"
)

// events reads the feed after a cursor, all of it.
func events(t *testing.T, s store.Store, after int64) []storetype.Event {
	t.Helper()
	es, err := s.Events(t.Context(), store.EventsParams{After: after, Limit: 100000})
	if err != nil {
		t.Fatalf("Events(after %d): %v", after, err)
	}
	return es
}

// TestEventsLateCommit: a transaction that wrote its event first but
// commits last still lands after the cursor a reader took between the two
// commits.
func TestEventsLateCommit(t *testing.T) {
	ctx := t.Context()
	url := pgtest.SchemaURL(t)
	s := open(t, url, postgres.Options{})
	// Two templates, so that the claims do not queue on one template row.
	slowTpl, fastTpl := storetest.Template(t, s, t0, nil), storetest.Template(t, s, t0, nil)

	release := make(chan struct{})
	// The slow claim inserts its coupon, builds its event and waits.
	slowDone := storetest.PausedClaim(t, openDriver(t, url, postgres.Options{}), store.ClaimParams{TemplateID: slowTpl.ID, UserID: "slow", Now: t0,
		Idem: &store.Idempotency{Key: "slow", Fingerprint: "fp", Now: t0}}, release)
	fast, err := s.Claim(ctx, store.ClaimParams{TemplateID: fastTpl.ID, UserID: "fast", Now: t0.Add(time.Millisecond)})
	if err != nil {
		t.Fatalf("fast claim: %v", err)
	}

	between := events(t, s, 0)
	if len(between) != 1 || between[0].Subject != fast.ID {
		t.Fatalf("feed between the commits: got %s, want the fast claim's event only", fmtEvents(between))
	}
	cursor := between[0].Seq

	close(release)
	slow := <-slowDone
	if slow.Err != nil {
		t.Fatalf("slow claim: %v", slow.Err)
	}
	after := events(t, s, cursor)
	if len(after) != 1 || after[0].Subject != slow.Coupon.ID || after[0].Type != store.EventCouponClaimed {
		t.Fatalf("feed after the cursor %d once the slow claim committed: got %s, want its coupon.claimed for %s",
			cursor, fmtEvents(after), slow.Coupon.ID)
	}
}

// TestEventsNoCommitLock: a transaction that has written its outbox
// record and stays open holds no other writer's commit back, and its
// events, once it commits, come after what a reader passed meanwhile.
// The open transaction writes its record with the store's own statement.
func TestEventsNoCommitLock(t *testing.T) {
	ctx := t.Context()
	u := pgtest.SchemaURL(t)
	s := open(t, u, postgres.Options{})
	tp := storetest.Template(t, s, t0, nil)
	base := events(t, s, 0)

	held, err := pgtest.Connect(t, u).Begin(ctx)
	if err != nil {
		t.Fatalf("begin: %v", err)
	}
	defer held.Rollback(context.WithoutCancel(ctx))
	heldEvent := storetype.Event{ID: "evt_held", Type: "test.held", Subject: "held", Time: t0, Data: json.RawMessage(`{}`)}
	body := store.EncodeRecord([]storetype.Event{heldEvent})
	if _, err := held.Exec(ctx, postgres.QueryText("InsertRecord"), 1, heldEvent.ID, t0, string(body)); err != nil {
		t.Fatalf("write a record: %v", err)
	}

	// Were positions taken under a lock held to the commit, this claim
	// would wait for the held transaction, here until the deadline.
	bounded, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if _, err := s.Claim(bounded, store.ClaimParams{TemplateID: tp.ID, UserID: "u1", Now: t0}); err != nil {
		t.Fatalf("claim beside an open writer: %v", err)
	}
	passed := events(t, s, 0)[len(base):]
	if len(passed) != 1 || passed[0].Type != store.EventCouponClaimed {
		t.Fatalf("feed while the held record is open: got %s, want the claim only", fmtEvents(passed))
	}
	if err := held.Commit(ctx); err != nil {
		t.Fatalf("commit the held transaction: %v", err)
	}
	later := events(t, s, passed[0].Seq)
	if len(later) != 1 || later[0].ID != heldEvent.ID || later[0].Seq != passed[0].Seq+1 {
		t.Fatalf("feed after the cursor %d once the held record committed: got %s, want evt_held next",
			passed[0].Seq, fmtEvents(later))
	}
}

// waitForLockWait returns once a session of the test's schema waits on a
// lock, and fails if done delivers first: the call it ran did not wait.
func waitForLockWait(t *testing.T, u string, done <-chan error) {
	t.Helper()
	parsed, _ := url.Parse(u)
	app := parsed.Query().Get("application_name")
	probe := pgtest.Connect(t, u)
	for range 1000 {
		select {
		case err := <-done:
			t.Fatalf("returned (err %v) before waiting on a lock", err)
		default:
		}
		var waiting int
		err := probe.QueryRow(t.Context(),
			"SELECT count(*) FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'", app).Scan(&waiting)
		if err != nil {
			t.Fatalf("pg_stat_activity: %v", err)
		}
		if waiting > 0 {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("no session of %s waits on a lock after 5s", app)
}

// TestEventsTail: a reader tailing the feed while many writers commit
// concurrently sees every event exactly once, each subject's in the order
// they happened.
func TestEventsTail(t *testing.T) {
	ctx := t.Context()
	s := open(t, pgtest.SchemaURL(t), postgres.Options{MaxConns: 12})
	const writers, rounds = 8, 15
	tps := make([]coupon.Template, writers)
	for i := range tps {
		tps[i] = storetest.Template(t, s, t0, nil)
	}
	base := len(events(t, s, 0))

	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range rounds {
				now := t0.Add(time.Duration(r) * time.Second)
				c, err := s.Claim(ctx, store.ClaimParams{TemplateID: tps[w].ID, UserID: fmt.Sprintf("u%d-%d", w, r), Now: now})
				if err == nil {
					_, err = s.Transition(ctx, store.TransitionParams{CouponID: c.ID, Action: coupon.Void, Now: now})
				}
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	writing := make(chan struct{})
	go func() { wg.Wait(); close(writing) }()

	var seen []storetype.Event
	cursor := int64(0)
	for done := false; !done; {
		select {
		case <-writing:
			done = true // one more read after the last commit
		default:
		}
		page := events(t, s, cursor)
		if len(page) > 0 {
			seen = append(seen, page...)
			cursor = page[len(page)-1].Seq
		}
	}
	close(errs)
	for err := range errs {
		t.Fatalf("writer: %v", err)
	}

	all := events(t, s, 0)
	if len(seen) != len(all) || len(all) != base+2*writers*rounds {
		t.Fatalf("tailed %d events, the feed holds %d, want %d", len(seen), len(all), base+2*writers*rounds)
	}
	claimed := map[string]bool{}
	for i, e := range seen {
		if e.ID != all[i].ID || e.Seq != all[i].Seq {
			t.Fatalf("tailed event %d: got %d:%s, want %d:%s", i, e.Seq, e.ID, all[i].Seq, all[i].ID)
		}
		if i > 0 && e.Seq != seen[i-1].Seq+1 {
			t.Fatalf("tailed event %d: seq %d after %d, want dense positions", i, e.Seq, seen[i-1].Seq)
		}
		switch e.Type {
		case store.EventCouponClaimed:
			claimed[e.Subject] = true
		case store.EventCouponVoided:
			if !claimed[e.Subject] {
				t.Fatalf("event %d: %s voided before its claim in the feed", i, e.Subject)
			}
		}
	}
}

// TestIdempotencyInFlight: two requests under one key run at once; the
// one that stores its response first wins, the other is answered that
// response and leaves nothing, and a retry replays the winner.
func TestIdempotencyInFlight(t *testing.T) {
	ctx := t.Context()
	url := pgtest.SchemaURL(t)
	s := open(t, url, postgres.Options{})
	tp := storetest.Template(t, s, t0, nil)

	release := make(chan struct{})
	// The first claims, and waits before it stores its response.
	firstDone := storetest.PausedClaim(t, openDriver(t, url, postgres.Options{}), store.ClaimParams{TemplateID: tp.ID, UserID: "u1", Now: t0,
		Idem: &store.Idempotency{Key: "k", Fingerprint: "fp", Now: t0}}, release)
	// Of another template and user, so that the second does not queue
	// behind the first on the template's or the user's row: it runs
	// through and stores first.
	other := storetest.Template(t, s, t0, nil)
	idem := &store.Idempotency{Key: "k", Fingerprint: "fp", Now: t0}
	second, err := s.Claim(ctx, store.ClaimParams{TemplateID: other.ID, UserID: "u2", Now: t0, Idem: idem})
	if err != nil {
		t.Fatalf("second request, not held: %v", err)
	}
	close(release)
	if err := (<-firstDone).Err; replayedID(err) != second.ID {
		t.Fatalf("first request, committing after the second: got %v, want a replay of %s", err, second.ID)
	}
	for user, want := range map[string][]string{"u1": nil, "u2": {second.ID}} {
		cs, err := s.UserCoupons(ctx, storetype.UserCouponsParams{UserID: user, Now: t0, Limit: storetype.MaxWalletPage})
		if err != nil {
			t.Fatalf("UserCoupons: %v", err)
		}
		if len(cs) != len(want) || (len(cs) == 1 && cs[0].ID != want[0]) {
			t.Fatalf("%s holds %d coupons, want %v", user, len(cs), want)
		}
	}
	_, err = s.Claim(ctx, store.ClaimParams{TemplateID: other.ID, UserID: "u2", Now: t0, Idem: idem})
	if replayedID(err) != second.ID {
		t.Fatalf("retry: got %v, want a replay of %s", err, second.ID)
	}
}

func fmtEvents(es []storetype.Event) string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = fmt.Sprintf("%d:%s:%s", e.Seq, e.Type, e.Subject)
	}
	return fmt.Sprint(out)
}

// replayedID is the ID of the coupon err replays, "" if it replays none.
func replayedID(err error) string {
	var (
		re *store.ReplayError
		c  coupon.Coupon
	)
	if !errors.As(err, &re) || json.Unmarshal(re.Result, &c) != nil {
		return ""
	}
	return c.ID
}
