package coupon

import (
	"errors"
	"fmt"
	"testing"
	"time"
)

// want is the expected outcome of one (state, action) pair, written out by
// hand from DESIGN.md rather than derived from Table, so that a wrong row
// in Table fails here.
type want struct {
	before, after         State // 0: refused
	beforeErr, afterErr   error
	wrongOrderErr         error // when asked by another order; nil: order not checked
	lockNotPassedOverride bool  // Release before locked_until is not due
}

func TestDecideEveryPair(t *testing.T) {
	exp := time.Date(2026, 11, 11, 0, 0, 0, 0, time.UTC)
	beforeExp, atExp, afterExp := exp.Add(-time.Millisecond), exp, exp.Add(time.Hour)
	// A pair the table leaves out is refused as invalid at any time, by
	// any order.
	refused := want{beforeErr: ErrInvalidState, afterErr: ErrInvalidState}
	table := map[State]map[Action]want{
		Unused: {
			Lock:   {before: Locked, afterErr: ErrExpired},
			Redeem: {before: Used, afterErr: ErrExpired},
			Expire: {beforeErr: ErrNotDue, after: Expired},
			Void:   {before: Voided, afterErr: ErrExpired},
		},
		Locked: {
			Redeem:  {before: Used, after: Used, wrongOrderErr: ErrInvalidState},
			Unlock:  {before: Unused, after: Expired, wrongOrderErr: ErrInvalidState},
			Release: {before: Unused, after: Expired, lockNotPassedOverride: true},
		},
		Used: {
			Refund: {before: Unused, after: Expired, wrongOrderErr: ErrInvalidState},
		},
		Expired: {
			Lock:   {beforeErr: ErrExpired, afterErr: ErrExpired},
			Redeem: {beforeErr: ErrExpired, afterErr: ErrExpired},
			Void:   {beforeErr: ErrExpired, afterErr: ErrExpired},
		},
	}
	check := func(t *testing.T, c Coupon, act Action, order string, now time.Time, wantState State, wantErr error) {
		t.Helper()
		got, err := Decide(c, act, order, now)
		if wantErr != nil {
			if !errors.Is(err, wantErr) {
				t.Fatalf("%s/%s at %s by %q: got (%v, %v), want error %v", c.Status, act, now.Sub(exp), order, got, err, wantErr)
			}
			return
		}
		if err != nil || got != wantState {
			t.Fatalf("%s/%s at %s by %q: got (%v, %v), want %v", c.Status, act, now.Sub(exp), order, got, err, wantState)
		}
	}
	for _, s := range States {
		for _, act := range Actions {
			w, ok := table[s][act]
			if !ok {
				w = refused
			}
			t.Run(fmt.Sprintf("%s/%s", s, act), func(t *testing.T) {
				c := Coupon{Status: s, ExpiresAt: exp, OrderID: "o1", LockedUntil: beforeExp.Add(-time.Minute)}
				check(t, c, act, "o1", beforeExp, w.before, w.beforeErr)
				check(t, c, act, "o1", atExp, w.after, w.afterErr)
				check(t, c, act, "o1", afterExp, w.after, w.afterErr)
				if w.wrongOrderErr != nil {
					check(t, c, act, "o2", beforeExp, 0, w.wrongOrderErr)
					check(t, c, act, "o2", afterExp, 0, w.wrongOrderErr)
				}
				if w.lockNotPassedOverride {
					c.LockedUntil = afterExp.Add(time.Minute)
					check(t, c, act, "", beforeExp, 0, ErrNotDue)
					check(t, c, act, "", afterExp, 0, ErrNotDue)
				}
			})
		}
	}
}

func TestTableHasNoDuplicatePairs(t *testing.T) {
	seen := map[[2]uint8]bool{}
	for _, r := range Table {
		k := [2]uint8{uint8(r.From), uint8(r.Action)}
		if seen[k] {
			t.Fatalf("duplicate rule %s/%s", r.From, r.Action)
		}
		seen[k] = true
	}
}

func TestTerminalStatesHaveNoRules(t *testing.T) {
	for _, r := range Table {
		if r.From.Terminal() {
			t.Fatalf("rule leaves terminal state %s", r.From)
		}
	}
}

func TestViewLazyCheck(t *testing.T) {
	exp := time.Date(2026, 11, 11, 0, 0, 0, 0, time.UTC)
	cases := []struct {
		status State
		now    time.Time
		want   State
	}{
		{Unused, exp.Add(-time.Millisecond), Unused},
		{Unused, exp, Expired},
		{Locked, exp.Add(time.Hour), Locked},
		{Used, exp.Add(time.Hour), Used},
	}
	for _, c := range cases {
		got := Coupon{Status: c.status, ExpiresAt: exp}.View(c.now).Status
		if got != c.want {
			t.Fatalf("%s at %s: got %s, want %s", c.status, c.now.Sub(exp), got, c.want)
		}
	}
}

func TestStateNamesRoundTrip(t *testing.T) {
	for _, s := range States {
		got, err := ParseState(s.String())
		if err != nil || got != s {
			t.Fatalf("ParseState(%q): got (%v, %v), want %v", s.String(), got, err, s)
		}
	}
	if _, err := ParseState("gone"); err == nil {
		t.Fatalf("ParseState(gone): got nil error, want one")
	}
}
