package credential

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Scope is a right a token holds: each route of the API needs exactly one.
type Scope int

// The scopes.
const (
	// Wallet: claim, lock, unlock, redeem, refund and read coupons.
	Wallet Scope = iota + 1
	// Orders: read SKUs; create, pay, cancel and read orders.
	Orders
	// Admin: templates, bulk issuance, void, users, SKU stock, sinks,
	// replay, operations.
	Admin
	// Events: the event feed.
	Events
	// Metrics: GET /metrics.
	Metrics
)

// Scopes lists every scope, in order.
var Scopes = []Scope{Wallet, Orders, Admin, Events, Metrics}

var names = map[Scope]string{Wallet: "wallet", Orders: "orders", Admin: "admin", Events: "events", Metrics: "metrics"}

// String returns the scope's name.
func (s Scope) String() string {
	if n, ok := names[s]; ok {
		return n
	}
	return fmt.Sprintf("Scope(%d)", int(s))
}

// ErrUnknownScope: a name that is not a scope's.
var ErrUnknownScope = errors.New("unknown scope")

// ParseScope returns the scope named name.
func ParseScope(name string) (Scope, error) {
	for s, n := range names {
		if n == name {
			return s, nil
		}
	}
	return 0, fmt.Errorf("%w %q (want one of %s)", ErrUnknownScope, name, Join(Scopes))
}

// ParseScopes reads a comma-separated list of scope names: at least one,
// sorted and without repeats in the result.
func ParseScopes(list string) ([]Scope, error) {
	var out []Scope
	for name := range strings.SplitSeq(list, ",") {
		s, err := ParseScope(strings.TrimSpace(name))
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// Join writes scopes as ParseScopes reads them.
func Join(scopes []Scope) string {
	parts := make([]string, len(scopes))
	for i, s := range scopes {
		parts[i] = s.String()
	}
	return strings.Join(parts, ",")
}
