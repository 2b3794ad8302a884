package storetest

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// runHooks checks what a backend tells its store.Hooks: after each commit,
// every group timer the transaction wrote (already visible to a reader)
// and every event it wrote (by type; after a bulk issuance and an expiry
// drain, by ID, type, subject and time as the outbox holds them); after
// each user's write that committed, how long it took, and never after a
// drain's; nothing of a transaction that was refused or rolled back.
// newDriver is as for Run.
func runHooks(t *testing.T, newDriver NewDriver) {
	log := &hookLog{}
	atPut := func() {} // called as a transaction records an idempotency key
	d := AtPutRequest(newDriver(t), func() { atPut() })
	s := store.New(d, store.Options{Hooks: store.Hooks{OnTimer: log.onTimer, OnEvents: log.onEvents, OnUserWrite: log.onUserWrite}})
	log.s = s
	f := &fixture{t: t, s: s, ctx: t.Context()}
	tp := f.template(func(tp *coupon.Template) { tp.Total = 2 })
	log.take(t) // creating a template writes neither
	log.wantWrites(t, "template", 1)

	c := f.claim(tp.ID, "u1", t0.Add(300*time.Millisecond))
	log.want(t, "claim", []storetype.Timer{{Kind: storetype.TimerExpire, Due: storetype.BucketOf(c.ExpiresAt)}}, []string{store.EventCouponClaimed})
	log.wantWrites(t, "claim", 1)

	lockAt := t0.Add(time.Minute + 600*time.Millisecond)
	c = f.do(c.ID, lock("o1", lockAt, 15*time.Minute))
	log.want(t, "lock", []storetype.Timer{{Kind: storetype.TimerRelease, Due: storetype.BucketOf(c.LockedUntil)}}, []string{store.EventCouponLocked})

	// Refused: writes nothing, announces nothing.
	_, err := s.Transition(f.ctx, store.TransitionParams{CouponID: c.ID, Action: coupon.Lock, OrderID: "o2", LockTTL: time.Minute, Now: lockAt})
	f.wantErr("second lock", err, coupon.ErrInvalidState)
	log.want(t, "refused lock", nil, nil)
	log.wantWrites(t, "lock, then a refused lock", 1)

	// Rolled back after the timer and event were written: the client goes
	// away as its key is recorded, so the transaction cannot commit.
	cctx, cancel := context.WithCancel(f.ctx)
	defer cancel()
	atPut = cancel
	_, err = s.Claim(cctx, store.ClaimParams{TemplateID: tp.ID, UserID: "u2", Now: t0.Add(5 * time.Second), Idem: scopedIdem("k", t0)})
	atPut = func() {}
	f.wantErr("claim cancelled before commit", err, context.Canceled)
	log.want(t, "rolled-back claim", nil, nil)
	log.wantWrites(t, "rolled-back claim", 0)
	f.wantHolds("rolled-back claim", "u2", t0, 0)

	// The rollback gave its issue back: the second of two still succeeds,
	// and the third is refused without a word to the hooks.
	f.claim(tp.ID, "u2", t0.Add(5*time.Second))
	log.take(t)
	_, err = s.Claim(f.ctx, store.ClaimParams{TemplateID: tp.ID, UserID: "u3", Now: t0.Add(6 * time.Second)})
	f.wantErr("third claim", err, coupon.ErrSoldOut)
	log.want(t, "sold-out claim", nil, nil)
	log.wantWrites(t, "a claim, then a sold-out claim", 1)

	// A bulk issuance and an expiry drain, which a backend may write in
	// SQL, announce each event they wrote as the outbox holds it.
	bulk := f.durationTemplate()
	after := f.cursor()
	f.issue(store.IssueParams{TemplateID: bulk.ID, Users: store.UserList(users(3)), Now: t0})
	log.wantOutbox(t, "issue", f.eventsAfter(after))
	after = f.cursor()
	log.wantWrites(t, "issue", -1)
	f.expireDue(farFuture, 100)
	log.wantOutbox(t, "expiry", f.eventsAfter(after))
	log.wantWrites(t, "expiry", 0)
}

// hookLog records what the hooks announced and whether each timer was
// already visible to a reader when it was announced.
type hookLog struct {
	mu        sync.Mutex
	s         store.Store
	timers    []storetype.Timer
	events    []storetype.Event
	invisible []storetype.Timer
	writes    int           // user writes announced
	badTook   time.Duration // a user write announced with a duration not above 0
}

func (l *hookLog) onTimer(tm storetype.Timer) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.timers = append(l.timers, tm)
	ts, err := l.s.Timers(context.Background(), storetype.TimersParams{Before: tm.Due, Limit: 1000})
	if err != nil || !hasTimer(ts, tm.Kind, tm.Due) {
		l.invisible = append(l.invisible, tm)
	}
}

func (l *hookLog) onUserWrite(took time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if took <= 0 {
		l.badTook = took
	}
	l.writes++
}

// wantWrites fails unless n user writes (any if n < 0), each of a positive
// duration, were announced since the last wantWrites.
func (l *hookLog) wantWrites(t *testing.T, what string, n int) {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.badTook != 0 {
		t.Fatalf("%s: OnUserWrite announced a write that took %s", what, l.badTook)
	}
	if n >= 0 && l.writes != n {
		t.Fatalf("%s: OnUserWrite announced %d writes, want %d", what, l.writes, n)
	}
	l.writes = 0
}

func (l *hookLog) onEvents(events []storetype.Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.events = append(l.events, events...)
}

// take returns and forgets what was announced so far.
func (l *hookLog) take(t *testing.T) ([]storetype.Timer, []string) {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.invisible) > 0 {
		t.Fatalf("OnTimer announced %s before it was committed", fmtTimers(l.invisible))
	}
	timers, types := l.timers, make([]string, len(l.events))
	for i, e := range l.events {
		types[i] = e.Type
	}
	l.timers, l.events = nil, nil
	return timers, types
}

// want fails unless what was announced since the last take is exactly
// timers and events.
func (l *hookLog) want(t *testing.T, what string, timers []storetype.Timer, events []string) {
	t.Helper()
	gotTimers, gotEvents := l.take(t)
	if !slices.EqualFunc(gotTimers, timers, sameTimer) {
		t.Fatalf("%s: OnTimer got %s, want %s", what, fmtTimers(gotTimers), fmtTimers(timers))
	}
	if !slices.Equal(gotEvents, events) {
		t.Fatalf("%s: OnEvents got %v, want %v", what, gotEvents, events)
	}
}

// wantOutbox fails unless the events announced since the last take are
// those of outbox, by ID, type, subject and time, in any order.
func (l *hookLog) wantOutbox(t *testing.T, what string, outbox []storetype.Event) {
	t.Helper()
	l.mu.Lock()
	announced := l.events
	l.mu.Unlock()
	l.take(t)
	key := func(e storetype.Event) string {
		return e.ID + " " + e.Type + " " + e.Subject + " " + e.Time.UTC().Format(storetype.TimeFormat)
	}
	got, want := make([]string, len(announced)), make([]string, len(outbox))
	for i, e := range announced {
		got[i] = key(e)
	}
	for i, e := range outbox {
		want[i] = key(e)
	}
	slices.Sort(got)
	slices.Sort(want)
	if len(want) == 0 || !slices.Equal(got, want) {
		t.Fatalf("%s: OnEvents got %v, want the outbox's %v", what, got, want)
	}
}
