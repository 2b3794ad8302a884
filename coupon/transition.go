package coupon

import "time"

// Rule is one row of the transition table: what Action does to a coupon in
// state From. Before is the state it moves to when the action comes before
// the coupon's expires_at, After when it comes at or after it. A zero
// Before means the action is not due yet (ErrNotDue); a zero After means it
// is refused because the coupon expired (ErrExpired).
type Rule struct {
	From   State
	Action Action
	Before State
	After  State
	// SameOrder: only the order holding the coupon may ask.
	SameOrder bool
	// LockPassed: only once the coupon's locked_until has passed.
	LockPassed bool
}

// Table is the coupon state machine of DESIGN.md, as data. Any (state,
// action) pair not in it is refused with ErrInvalidState.
var Table = []Rule{
	{From: Unused, Action: Lock, Before: Locked},
	// A lock taken in time is honoured after expires_at.
	{From: Locked, Action: Redeem, Before: Used, After: Used, SameOrder: true},
	{From: Unused, Action: Redeem, Before: Used},
	{From: Locked, Action: Unlock, Before: Unused, After: Expired, SameOrder: true},
	{From: Locked, Action: Release, Before: Unused, After: Expired, LockPassed: true},
	{From: Unused, Action: Expire, After: Expired},
	{From: Used, Action: Refund, Before: Unused, After: Expired, SameOrder: true},
	{From: Unused, Action: Void, Before: Voided},
}

// Find returns the rule for (from, act), if the table has one.
func Find(from State, act Action) (Rule, bool) {
	for _, r := range Table {
		if r.From == from && r.Action == act {
			return r, true
		}
	}
	return Rule{}, false
}

// Decide returns the state c moves to when act is asked by orderID at now,
// or the error it is refused with. It does not change c.
func Decide(c Coupon, act Action, orderID string, now time.Time) (State, error) {
	r, ok := Find(c.Status, act)
	if !ok {
		if c.Status == Expired && (act == Lock || act == Redeem || act == Void) {
			return 0, ErrExpired
		}
		return 0, ErrInvalidState
	}
	if r.SameOrder && orderID != c.OrderID {
		return 0, ErrInvalidState
	}
	if r.LockPassed && now.Before(c.LockedUntil) {
		return 0, ErrNotDue
	}
	to := r.Before
	if !now.Before(c.ExpiresAt) {
		to = r.After
	}
	switch {
	case to != 0:
		return to, nil
	case now.Before(c.ExpiresAt):
		return 0, ErrNotDue
	default:
		return 0, ErrExpired
	}
}
