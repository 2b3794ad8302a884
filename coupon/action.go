package coupon

import "fmt"

// Action is what is asked of a coupon.
type Action uint8

// The actions of the transition table.
const (
	// Lock holds an unused coupon for an order.
	Lock Action = iota + 1
	// Redeem spends a coupon for an order, locked by it or not.
	Redeem
	// Unlock gives a locked coupon back, asked by its order or because the
	// order closed.
	Unlock
	// Release gives a locked coupon back because its lock TTL passed.
	Release
	// Expire moves an unused coupon past its expires_at to expired.
	Expire
	// Refund gives a used coupon back when its order is refunded.
	Refund
	// Void withdraws an unused coupon (operator action).
	Void
)

var actionNames = [...]string{Lock: "lock", Redeem: "redeem", Unlock: "unlock", Release: "release", Expire: "expire", Refund: "refund", Void: "void"}

// Actions lists every action in order.
var Actions = []Action{Lock, Redeem, Unlock, Release, Expire, Refund, Void}

// String returns the action's name.
func (a Action) String() string {
	if a >= Lock && a <= Void {
		return actionNames[a]
	}
	return fmt.Sprintf("Action(%d)", uint8(a))
}
