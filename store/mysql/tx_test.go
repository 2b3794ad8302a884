package mysql_test

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/store/mysql"
)

// TestDeadlockRetried: a store transaction chosen as a deadlock's victim
// is run again and succeeds, with one event and one count change.
func TestDeadlockRetried(t *testing.T) {
	ctx := t.Context()
	dbURL := freshDB(t)
	s := open(t, dbURL, mysql.Options{})
	raw := rawDB(t, dbURL)
	tp := template(t, s, nil)
	c := claim(t, s, tp.ID, "victim")
	for range 20 {
		claim(t, s, tp.ID, "other")
	}

	// A transaction outside the store, made the heavier of the two by
	// rewriting twenty rows, holds the template's voided count. It reads
	// committed, as the store does, so it locks only the rows it names.
	rtx, err := raw.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelReadCommitted})
	if err != nil {
		t.Fatalf("begin: %v", err)
	}
	defer rtx.Rollback()
	if _, err := rtx.ExecContext(ctx, "UPDATE coupons SET updated_at = updated_at + INTERVAL 1 SECOND WHERE user_id = 'other'"); err != nil {
		t.Fatalf("raw update: %v", err)
	}
	var n int64
	if err := rtx.QueryRowContext(ctx, "SELECT n FROM template_counts WHERE template_id = ? AND status = 'voided' FOR UPDATE", tp.ID).Scan(&n); err != nil {
		t.Fatalf("raw lock of the count: %v", err)
	}

	// The store's void takes the coupon's row, then waits for the count.
	done := make(chan error, 1)
	go func() {
		_, err := s.Transition(ctx, store.TransitionParams{CouponID: c.ID, Action: coupon.Void, Now: t0.Add(time.Minute)})
		done <- err
	}()
	waitLockWait(t, raw, done)

	// Asking for the coupon's row closes the cycle; the server rolls back
	// the lighter transaction, the store's.
	if _, err := rtx.ExecContext(ctx, "UPDATE coupons SET version = version WHERE id = ?", c.ID); err != nil {
		t.Fatalf("test setup: the raw transaction, not the store's, was the deadlock's victim: %v", err)
	}
	if err := rtx.Rollback(); err != nil {
		t.Fatalf("raw rollback: %v", err)
	}
	if err := <-done; err != nil {
		t.Fatalf("void that lost a deadlock: got %v, want it retried to success", err)
	}
	if got, err := s.Coupon(ctx, c.ID); err != nil || got.Status != coupon.Voided || got.Version != 2 {
		t.Fatalf("after the retry: got %+v (err %v), want voided at v2", got, err)
	}
	info, err := s.Template(ctx, store.TemplateParams{ID: tp.ID, Now: t0})
	if err != nil || info.Counts[coupon.Voided] != 1 || info.Counts[coupon.Unused] != 20 {
		t.Fatalf("counts after the retry: got %v (err %v), want 20 unused, 1 voided", info.Counts, err)
	}
	es, err := s.Events(ctx, store.EventsParams{After: 0, Limit: 100})
	if err != nil || len(es) != 22 || es[21].Type != store.EventCouponVoided {
		t.Fatalf("events: got %d (err %v), want 21 claims then one void", len(es), err)
	}
}

// waitLockWait waits until some transaction waits for a row lock, failing
// if done tells first that the store's call ended. It polls more slowly
// than every 100ms: the server refreshes innodb_trx no more often, and
// not at all while it is read faster.
func waitLockWait(t *testing.T, db *sql.DB, done <-chan error) {
	t.Helper()
	for range 100 {
		select {
		case err := <-done:
			t.Fatalf("the store's call ended without waiting for a lock: %v", err)
		case <-time.After(150 * time.Millisecond):
		}
		var n int
		if err := db.QueryRowContext(t.Context(), "SELECT count(*) FROM information_schema.innodb_trx WHERE trx_state = 'LOCK WAIT'").Scan(&n); err != nil {
			t.Fatalf("innodb_trx: %v", err)
		}
		if n > 0 {
			return
		}
	}
	t.Fatalf("no transaction came to wait for a lock")
}

// TestIdempotencyRace: two requests under one key run at once; the one
// that commits second finds the key taken when it stores its response,
// and replays the first's instead. Nothing of its own is kept.
func TestIdempotencyRace(t *testing.T) {
	ctx := t.Context()
	s := open(t, freshDB(t), mysql.Options{})
	a, b := template(t, s, nil), template(t, s, nil)
	body := func(result any) []byte { return []byte(result.(coupon.Coupon).ID) }

	ran, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	slow := store.Idempotency{Key: "k", Fingerprint: "fp", Now: t0, Render: func(result any) (int, []byte) {
		once.Do(func() { close(ran); <-release })
		return 201, body(result)
	}}
	done := make(chan error, 1)
	go func() {
		_, err := s.Claim(store.WithIdempotency(ctx, slow), store.ClaimParams{TemplateID: a.ID, UserID: "u1", Now: t0})
		done <- err
	}()
	<-ran
	fast := store.Idempotency{Key: "k", Fingerprint: "fp", Now: t0, Render: func(result any) (int, []byte) { return 201, body(result) }}
	first, err := s.Claim(store.WithIdempotency(ctx, fast), store.ClaimParams{TemplateID: b.ID, UserID: "u1", Now: t0})
	if err != nil {
		t.Fatalf("fast claim: %v", err)
	}
	close(release)
	var re *store.ReplayError
	if err := <-done; !errors.As(err, &re) || re.Status != 201 || string(re.Body) != first.ID {
		t.Fatalf("slow claim under the same key: got %v, want a replay of %s", err, first.ID)
	}
	cs, err := s.UserCoupons(ctx, store.UserCouponsParams{UserID: "u1", Now: t0})
	if err != nil || len(cs) != 1 || cs[0].ID != first.ID {
		t.Fatalf("u1's coupons: got %v (err %v), want only %s", cs, err, first.ID)
	}
	info, err := s.Template(ctx, store.TemplateParams{ID: a.ID, Now: t0})
	if err != nil || info.Counts[coupon.Unused] != 0 {
		t.Fatalf("slow claim's template counts: got %v (err %v), want no coupon", info.Counts, err)
	}
}

// hookLog records what the hooks announced, and whether each timer was
// already visible to a reader when it was announced.
type hookLog struct {
	mu        sync.Mutex
	s         *mysql.Store
	timers    []store.Timer
	events    []string
	invisible []store.Timer
}

func (l *hookLog) onTimer(tm store.Timer) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.timers = append(l.timers, tm)
	ts, err := l.s.Timers(context.Background(), store.TimersParams{Before: tm.Due, Limit: 1000})
	if err != nil || !slices.ContainsFunc(ts, func(x store.Timer) bool { return x.Kind == tm.Kind && x.Due.Equal(tm.Due) }) {
		l.invisible = append(l.invisible, tm)
	}
}

func (l *hookLog) onEvents(types []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.events = append(l.events, types...)
}

// want fails unless the hooks announced exactly timers and events since
// the last call, each timer after its commit.
func (l *hookLog) want(t *testing.T, what string, timers []store.Timer, events []string) {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.invisible) > 0 {
		t.Fatalf("%s: OnTimer announced %v before it was committed", what, l.invisible)
	}
	if !slices.EqualFunc(l.timers, timers, func(a, b store.Timer) bool { return a.Kind == b.Kind && a.Due.Equal(b.Due) }) {
		t.Fatalf("%s: OnTimer got %v, want %v", what, l.timers, timers)
	}
	if !slices.Equal(l.events, events) {
		t.Fatalf("%s: OnEvents got %v, want %v", what, l.events, events)
	}
	l.timers, l.events = nil, nil
}

// TestHooks: the hooks hear, after the commit, of what a transaction wrote,
// and nothing of one that was refused or rolled back.
func TestHooks(t *testing.T) {
	ctx := t.Context()
	log := &hookLog{}
	s := open(t, freshDB(t), mysql.Options{OnTimer: log.onTimer, OnEvents: log.onEvents})
	log.s = s
	tp := template(t, s, func(tp *coupon.Template) { tp.Total = 2 })
	log.want(t, "template", nil, nil)

	c, err := s.Claim(ctx, store.ClaimParams{TemplateID: tp.ID, UserID: "u1", Now: t0.Add(300 * time.Millisecond)})
	if err != nil {
		t.Fatalf("Claim: %v", err)
	}
	log.want(t, "claim", []store.Timer{{Kind: store.TimerExpire, Due: store.BucketOf(c.ExpiresAt)}}, []string{store.EventCouponClaimed})

	c, err = s.Transition(ctx, store.TransitionParams{CouponID: c.ID, Action: coupon.Lock, OrderID: "o1", LockTTL: time.Minute, Now: t0.Add(time.Second)})
	if err != nil {
		t.Fatalf("Lock: %v", err)
	}
	log.want(t, "lock", []store.Timer{{Kind: store.TimerRelease, Due: store.BucketOf(c.LockedUntil)}}, []string{store.EventCouponLocked})

	if _, err := s.ReleaseLocks(ctx, store.DueParams{Now: c.LockedUntil, Limit: 10}); err != nil {
		t.Fatalf("ReleaseLocks: %v", err)
	}
	log.want(t, "release", []store.Timer{{Kind: store.TimerExpire, Due: store.BucketOf(c.ExpiresAt)}}, []string{store.EventCouponUnlocked})

	// Cancelled while storing its response: rolled back, nothing heard.
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	idem := store.Idempotency{Key: "k", Fingerprint: "fp", Now: t0, Render: func(any) (int, []byte) {
		cancel()
		return 201, []byte("x")
	}}
	_, err = s.Claim(store.WithIdempotency(cctx, idem), store.ClaimParams{TemplateID: tp.ID, UserID: "u2", Now: t0.Add(5 * time.Second)})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("claim cancelled before commit: got %v, want %v", err, context.Canceled)
	}
	log.want(t, "rolled-back claim", nil, nil)

	// The rollback gave its issue back: one more claim succeeds, the
	// next is refused unheard.
	if _, err := s.Claim(ctx, store.ClaimParams{TemplateID: tp.ID, UserID: "u2", Now: t0}); err != nil {
		t.Fatalf("claim after the rollback: %v", err)
	}
	log.want(t, "second claim", []store.Timer{{Kind: store.TimerExpire, Due: store.BucketOf(t0.Add(24 * time.Hour))}}, []string{store.EventCouponClaimed})
	if _, err := s.Claim(ctx, store.ClaimParams{TemplateID: tp.ID, UserID: "u3", Now: t0}); !errors.Is(err, coupon.ErrSoldOut) {
		t.Fatalf("third claim: got %v, want %v", err, coupon.ErrSoldOut)
	}
	log.want(t, "sold-out claim", nil, nil)
}
