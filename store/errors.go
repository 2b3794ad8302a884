package store

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Errors every backend returns in place of its driver's. Domain refusals
// (coupon.ErrExpired and the rest) pass through unchanged.
var (
	// ErrNotFound: the ID names nothing.
	ErrNotFound = errors.New("not found")
	// ErrIdempotencyConflict: an idempotency key was reused with another
	// request, or its first request is still in flight.
	ErrIdempotencyConflict = errors.New("idempotency key reused with a different request")
	// ErrRequestTaken: a concurrent transaction recorded a request under
	// the key this one was recording under. Mutate runs the request again,
	// which finds that one; elsewhere (a bulk issuance) it is an
	// ErrIdempotencyConflict.
	ErrRequestTaken = fmt.Errorf("%w: recorded by a concurrent request", ErrIdempotencyConflict)
)

// ReplayError carries the stored first response of an idempotent request
// that was retried: the caller returns it as is.
type ReplayError struct {
	Status int
	Body   []byte
}

func (e *ReplayError) Error() string { return "idempotent replay" }

// Idempotency asks a backend to record, in the same transaction as the
// mutation, the response to a request, and to replay it for a retry (see
// Mutate).
type Idempotency struct {
	Key string
	// Scope is what the key is scoped to, the request's method and path:
	// one key in two scopes is two keys.
	Scope       string
	Fingerprint string
	// Now is when the request came; stored for retention.
	Now time.Time
	// TTL is how long the key holds its request: one recorded TTL or more
	// before Now is forgotten. 0 means DefaultRequestTTL.
	TTL time.Duration
	// Render turns the mutation's result into the response to store.
	Render func(result any) (status int, body []byte)
	// RenderError, if set, turns the mutation's refusal into its response,
	// and says whether to keep it as the key's response (a refusal for
	// the state of things) or not (an invalid request, a failure). Unset,
	// no refusal is kept.
	RenderError func(err error) (status int, body []byte, keep bool)
}

// DefaultRequestTTL is how long an idempotency key holds its request when
// Idempotency.TTL is 0: a day, as at Stripe.
const DefaultRequestTTL = 24 * time.Hour

type idempotencyKey struct{}

// WithoutIdempotency returns ctx with no Idempotency on it, for a write
// that must not be taken for the request's mutation.
func WithoutIdempotency(ctx context.Context) context.Context {
	return context.WithValue(ctx, idempotencyKey{}, nil)
}

// WithIdempotency returns a context that makes the next mutation idempotent
// under idem.
func WithIdempotency(ctx context.Context, idem Idempotency) context.Context {
	return context.WithValue(ctx, idempotencyKey{}, idem)
}

// IdempotencyFrom returns the Idempotency set on ctx, if any.
func IdempotencyFrom(ctx context.Context) (Idempotency, bool) {
	idem, ok := ctx.Value(idempotencyKey{}).(Idempotency)
	return idem, ok
}
