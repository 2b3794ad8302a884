package store

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
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

// errInFlight: the request recorded under the key is this same request,
// still under way in other transactions.
var errInFlight = fmt.Errorf("%w: its first request is still in flight", ErrIdempotencyConflict)

// Response renders res as the response recorded for idem's request.
func (idem Idempotency) Response(res any) Request {
	status, body := idem.Render(res)
	return idem.request(status, body)
}

// request is the Request recording status and body for idem's request.
func (idem Idempotency) request(status int, body []byte) Request {
	if body == nil {
		body = []byte{} // a nil slice binds as NULL; body is NOT NULL
	}
	return Request{Fingerprint: idem.Fingerprint, Status: status, Body: body, Created: idem.Now}
}

// storedKey is the key idem's request is stored under: the hex SHA-256 of
// its scope and key, each prefixed by its length, so that a key is
// scoped and fits any column whatever its length.
func (idem Idempotency) storedKey() string {
	h := sha256.New()
	fmt.Fprintf(h, "%d:%s%d:%s", len(idem.Scope), idem.Scope, len(idem.Key), idem.Key)
	return hex.EncodeToString(h.Sum(nil))
}

// expiry is the instant at or before which a request recorded under idem's
// key is expired as seen from idem.Now.
func (idem Idempotency) expiry() time.Time {
	ttl := idem.TTL
	if ttl <= 0 {
		ttl = DefaultRequestTTL
	}
	return idem.Now.Add(-ttl)
}

// replayIn looks up in t what an earlier request under idem's key left:
// nil if none; the stored response as a *ReplayError if it was the same
// request; errInFlight if it is the same request still in flight;
// ErrIdempotencyConflict if it was another.
func replayIn(t Tx, idem Idempotency) error {
	_, inFlight, err := recorded(t, idem)
	if err == nil && inFlight {
		return errInFlight
	}
	return err
}

// recorded reads the request recorded under idem's key. If it is idem's
// request, still in flight, it returns it and true; if there is none,
// false; else, as replayIn, a *ReplayError or ErrIdempotencyConflict. A
// request recorded at or before idem's expiry is none: it is forgotten,
// so that the key can be recorded anew.
func recorded(t Tx, idem Idempotency) (Request, bool, error) {
	key := idem.storedKey()
	r, err := t.Request(key)
	switch {
	case errors.Is(err, ErrNotFound):
		return r, false, nil
	case err != nil:
		return r, false, err
	case !r.Created.After(idem.expiry()):
		return Request{}, false, t.ForgetRequest(key, idem.expiry())
	case r.Fingerprint != idem.Fingerprint:
		return r, false, ErrIdempotencyConflict
	case r.Status != InFlight:
		return r, false, &ReplayError{Status: r.Status, Body: r.Body}
	}
	return r, true, nil
}
