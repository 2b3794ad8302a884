package coupon

import "fmt"

// State is where a coupon is in its lifecycle.
type State uint8

// The five coupon states. The zero value is not a state.
const (
	// Unused: claimed and spendable until its expires_at.
	Unused State = iota + 1
	// Locked: held by an order until that order pays or closes, or until
	// the lock's TTL passes. A locked coupon is never expired directly.
	Locked
	// Used: redeemed by an order. A refund may bring it back.
	Used
	// Expired: its expires_at passed while it was unused. Terminal.
	Expired
	// Voided: withdrawn by an operator. Terminal.
	Voided
)

var stateNames = [...]string{Unused: "unused", Locked: "locked", Used: "used", Expired: "expired", Voided: "voided"}

// States lists every state in order.
var States = []State{Unused, Locked, Used, Expired, Voided}

// String returns the state's name as it appears in the API and the store.
func (s State) String() string {
	if s >= Unused && s <= Voided {
		return stateNames[s]
	}
	return fmt.Sprintf("State(%d)", uint8(s))
}

// ParseState is the inverse of String.
func ParseState(name string) (State, error) {
	for _, s := range States {
		if stateNames[s] == name {
			return s, nil
		}
	}
	return 0, fmt.Errorf("unknown coupon state %q", name)
}

// Terminal reports whether no transition leaves s.
func (s State) Terminal() bool { return s == Expired || s == Voided }
