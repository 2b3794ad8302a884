package storetest

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/store"
)

var concurrencyTests = []test{
	{"LockRace", testLockRace},
	{"ClaimRaceTotal", testClaimRaceTotal},
	{"ClaimRacePerUser", testClaimRacePerUser},
}

// racers is how many goroutines race for one thing.
const racers = 16

// race runs fn(i) for i in [0, racers) from goroutines released together
// and returns each call's error.
func race(fn func(i int) error) []error {
	errs := make([]error, racers)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range racers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			errs[i] = fn(i)
		}()
	}
	close(start)
	wg.Wait()
	return errs
}

// wantRace fails unless exactly wins of errs are nil and every other is
// (or wraps) lose. It returns the index of the winners.
func (f *fixture) wantRace(what string, errs []error, wins int, lose error) []int {
	f.t.Helper()
	var won []int
	for i, err := range errs {
		switch {
		case err == nil:
			won = append(won, i)
		case !errors.Is(err, lose):
			f.t.Fatalf("%s: racer %d: got error %v, want nil or %v", what, i, err, lose)
		}
	}
	if len(won) != wins {
		f.t.Fatalf("%s: winners: got %d (%v), want %d", what, len(won), won, wins)
	}
	return won
}

// testLockRace has many orders lock one coupon at once, over several
// rounds: the compare-and-set lets exactly one through each time.
func testLockRace(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(nil)
	now := t0.Add(time.Hour)
	for round := range 8 {
		c := f.claim(tp.ID, fmt.Sprintf("u%d", round), t0)
		errs := race(func(i int) error {
			_, err := f.s.Transition(f.ctx, store.TransitionParams{
				CouponID: c.ID, Action: coupon.Lock, OrderID: fmt.Sprintf("o%d", i), LockTTL: 15 * time.Minute, Now: now,
			})
			return err
		})
		won := f.wantRace(fmt.Sprintf("round %d: concurrent locks", round), errs, 1, coupon.ErrInvalidState)
		got := f.coupon(c.ID)
		if want := fmt.Sprintf("o%d", won[0]); got.Status != coupon.Locked || got.OrderID != want || got.Version != 2 {
			t.Fatalf("round %d: after the race: got %s, want locked by %s at v2", round, fmtCoupon(got), want)
		}
		locked := 0
		for _, e := range f.eventsOf(c.ID) {
			if e.Type == store.EventCouponLocked {
				locked++
			}
		}
		if locked != 1 {
			t.Fatalf("round %d: coupon.locked events: got %d, want 1", round, locked)
		}
		f.wantCounts(fmt.Sprintf("round %d: counts", round), f.counts(tp.ID, now),
			map[coupon.State]int64{coupon.Locked: int64(round + 1)})
	}
}

// testClaimRaceTotal has more users than the total claim at once.
func testClaimRaceTotal(t *testing.T, open opener) {
	f := newFixture(t, open)
	const total = 5
	tp := f.template(func(tp *coupon.Template) { tp.Total = total })
	errs := race(func(i int) error {
		_, err := f.s.Claim(f.ctx, store.ClaimParams{TemplateID: tp.ID, UserID: fmt.Sprintf("u%d", i), Now: t0})
		return err
	})
	f.wantRace("concurrent claims", errs, total, coupon.ErrSoldOut)
	f.wantCounts("counts", f.counts(tp.ID, t0), map[coupon.State]int64{coupon.Unused: total})
	if es := f.events(); len(es) != total {
		t.Fatalf("events: got %d, want %d", len(es), total)
	}
}

// testClaimRacePerUser has one user claim many times at once.
func testClaimRacePerUser(t *testing.T, open opener) {
	f := newFixture(t, open)
	const limit = 2
	tp := f.template(func(tp *coupon.Template) { tp.PerUserLimit = limit })
	errs := race(func(i int) error {
		_, err := f.s.Claim(f.ctx, store.ClaimParams{TemplateID: tp.ID, UserID: "u1", Now: t0})
		return err
	})
	f.wantRace("concurrent claims by one user", errs, limit, coupon.ErrLimitReached)
	f.wantHolds("user coupons", "u1", t0, limit)
	f.wantCounts("counts", f.counts(tp.ID, t0), map[coupon.State]int64{coupon.Unused: limit})
}
