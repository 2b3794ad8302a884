package store

import (
	"fmt"
	"time"

	"github.com/lapsehq/lapse/coupon"
)

var (
	// ErrLapseOrder: a wallet transition (Store.Transition) named a
	// lapse order, whose coupons move only with it (see transitionIn).
	// It is coupon.ErrInvalidState.
	ErrLapseOrder = fmt.Errorf("%w: the order is a lapse order, whose coupons move only with it (pay, close, cancel)", coupon.ErrInvalidState)
	// ErrOperationDone: a cancel named an operation that has worked
	// every coupon it targets. It is coupon.ErrInvalidState.
	ErrOperationDone = fmt.Errorf("%w: the operation is done, there is nothing left to cancel", coupon.ErrInvalidState)
)

// ReplayError answers a retried idempotent request with what its first
// attempt returned: Result, the JSON of its result, which the caller
// decodes into the result type of the call and answers as it would have
// at At, when the first attempt ran. (A first attempt's kept refusal is
// replayed as that refusal, wrapped in a Replayed.)
type ReplayError struct {
	Result []byte
	At     time.Time
}

func (e *ReplayError) Error() string { return "idempotent replay" }

// Replayed is a refusal an idempotency key kept, answered again to a
// retry: errors.Is sees the refusal through it.
type Replayed struct{ Err error }

func (e *Replayed) Error() string { return e.Err.Error() }
func (e *Replayed) Unwrap() error { return e.Err }

// Idempotency is the idempotency key a mutation runs under: the mutation's
// result (or its refusal for the state of things, see Kept) is recorded
// in its transaction, and a retry is answered from the record (see
// idempotent). It travels as the Idem field of the call's parameters.
type Idempotency struct {
	Key string
	// Scope is what the key is scoped to, the request's method and path:
	// one key in two scopes is two keys.
	Scope       string
	Fingerprint string
	// Now is when the request came; stored for retention, and as the
	// replay's At.
	Now time.Time
	// TTL is how long the key holds its request: one recorded TTL or more
	// before Now is forgotten. 0 means DefaultRequestTTL.
	TTL time.Duration
}

// DefaultRequestTTL is how long an idempotency key holds its request when
// Idempotency.TTL is 0: a day, as at Stripe.
const DefaultRequestTTL = 24 * time.Hour
