package store

import (
	"errors"
	"time"
)

// Request is what an idempotency key holds: the fingerprint of the request
// made under it and the response it got, or InFlight while that request
// runs over several transactions (a bulk issuance).
type Request struct {
	Fingerprint string
	Status      int
	Body        []byte
	// Created is when the request came: its Idempotency.Now, or the Now of
	// the issuance in flight.
	Created time.Time
}

// InFlight is the Status recorded for a request under way over several
// transactions; HTTP statuses start at 100.
const InFlight = 0

// Response renders res as the response recorded for idem's request.
func (idem Idempotency) Response(res any) Request {
	status, body := idem.Render(res)
	if body == nil {
		body = []byte{} // a nil slice binds as NULL; body is NOT NULL
	}
	return Request{Fingerprint: idem.Fingerprint, Status: status, Body: body, Created: idem.Now}
}

// ReplayIn looks up in t what an earlier request under idem's key left:
// nil if none; the stored response as a *ReplayError if it was the same
// request; ErrIdempotencyConflict if it was another, or is still in flight.
func ReplayIn(t Tx, idem Idempotency) error {
	_, inFlight, err := recorded(t, idem)
	if err == nil && inFlight {
		return ErrIdempotencyConflict
	}
	return err
}

// recorded reads the request recorded under idem's key. If it is idem's
// request, still in flight, it returns it and true; if there is none,
// false; else, as ReplayIn, a *ReplayError or ErrIdempotencyConflict.
func recorded(t Tx, idem Idempotency) (Request, bool, error) {
	r, err := t.Request(idem.Key)
	switch {
	case errors.Is(err, ErrNotFound):
		return r, false, nil
	case err != nil:
		return r, false, err
	case r.Fingerprint != idem.Fingerprint:
		return r, false, ErrIdempotencyConflict
	case r.Status != InFlight:
		return r, false, &ReplayError{Status: r.Status, Body: r.Body}
	}
	return r, true, nil
}
