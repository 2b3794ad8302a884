package storetest

import (
	"testing"
	"time"

	"github.com/lapsehq/lapse/storetype"
)

var statsTests = []test{
	{"BacklogAndOutbox", testStats},
	{"Ready", testReady},
}

// stats reads the store's stats at now.
func (f *fixture) stats(now time.Time) storetype.Stats {
	f.t.Helper()
	return get(f, "Stats", f.s.Stats, now)
}

func (f *fixture) wantStats(what string, got, want storetype.Stats) {
	f.t.Helper()
	wantEqual(f, what, got, want)
}

// wantEqual fails f's test unless got is want.
func wantEqual[T comparable](f *fixture, what string, got, want T) {
	f.t.Helper()
	if got != want {
		f.t.Fatalf("%s: got %+v, want %+v", what, got, want)
	}
}

// testStats: the backlog counts what is due but not yet moved, unused past
// expires_at and locked past locked_until; the outbox counts events.
func testStats(t *testing.T, open opener) {
	f := newFixture(t, open)
	f.wantStats("fresh store", f.stats(t0), storetype.Stats{})
	tp := f.durationTemplate() // 1h
	h := time.Hour
	f.claimDue(tp, "a", t0.Add(h))
	f.claimDue(tp, "b", t0.Add(2*h))
	c := f.claimDue(tp, "c", t0.Add(3*h))
	f.do(c.ID, lock("o1", t0.Add(2*h+30*time.Minute), 10*time.Minute)) // lock passes at t0+2h40m
	f.wantStats("nothing due", f.stats(t0), storetype.Stats{DueBacklog: 0, Outbox: 4})
	f.wantStats("a due", f.stats(t0.Add(h)), storetype.Stats{DueBacklog: 1, Outbox: 4})
	f.wantStats("a, b due; 1ms before the lock passes", f.stats(t0.Add(2*h+40*time.Minute-time.Millisecond)), storetype.Stats{DueBacklog: 2, Outbox: 4})
	now := t0.Add(2*h + 40*time.Minute)
	f.wantStats("a, b, c's lock due", f.stats(now), storetype.Stats{DueBacklog: 3, Outbox: 4})

	f.expireDue(now, 100)
	f.wantStats("after expiry", f.stats(now), storetype.Stats{DueBacklog: 1, Outbox: 6})
	f.releaseLocks(now, 100)
	f.wantStats("after the release", f.stats(now), storetype.Stats{DueBacklog: 0, Outbox: 7})
	f.wantStats("c due again", f.stats(t0.Add(3*h)), storetype.Stats{DueBacklog: 1, Outbox: 7})
}

func testReady(t *testing.T, open opener) {
	f := newFixture(t, open)
	if err := f.s.Ready(f.ctx); err != nil {
		t.Fatalf("Ready on a fresh store: %v", err)
	}
}
