package store

import (
	"context"
	"errors"
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
)

// ReplayError carries the stored first response of an idempotent request
// that was retried: the caller returns it as is.
type ReplayError struct {
	Status int
	Body   []byte
}

func (e *ReplayError) Error() string { return "idempotent replay" }

// Idempotency asks a backend to record, in the same transaction as the
// mutation, the response to a request, and to replay it for a retry.
type Idempotency struct {
	Key         string
	Fingerprint string
	// Now is when the request came; stored for retention.
	Now time.Time
	// Render turns the mutation's result into the response to store.
	Render func(result any) (status int, body []byte)
}

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
