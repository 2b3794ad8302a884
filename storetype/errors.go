package storetype

import (
	"errors"
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
