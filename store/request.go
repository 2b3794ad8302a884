package store

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Request is what an idempotency key holds: the fingerprint of the request
// made under it and what it got, or InFlight while that request runs over
// several transactions (a bulk issuance).
type Request struct {
	Fingerprint string
	// Status says what Body holds: RecordedResult, the JSON of the
	// result; RecordedRefusal, the code of a kept refusal; or InFlight.
	Status int
	Body   []byte
	// Created is when the request came: its Idempotency.Now, or the Now of
	// the issuance in flight.
	Created time.Time
}

// What a Request's Status says of its Body.
const (
	// InFlight: the request is under way over several transactions.
	InFlight = 0
	// RecordedResult: Body is the JSON of the request's result.
	RecordedResult = 1
	// RecordedRefusal: Body is the code of a refusal kept (see kept).
	RecordedRefusal = 2
)

// errInFlight: the request recorded under the key is this same request,
// still under way in other transactions.
var errInFlight = fmt.Errorf("%w: its first request is still in flight", ErrIdempotencyConflict)

// result is the Request recording res as the result of idem's request.
func (idem Idempotency) result(res any) (Request, error) {
	body, err := json.Marshal(res)
	return idem.request(RecordedResult, body), err
}

// refusal is the Request recording err as the answer to idem's request,
// and whether err is one a key keeps.
func (idem Idempotency) refusal(err error) (Request, bool) {
	code := keptCode(err)
	return idem.request(RecordedRefusal, []byte(code)), code != ""
}

// request is the Request recording body of status for idem's request.
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
// nil if none; the recorded answer (a *ReplayError, or a *Replayed
// refusal) if it was the same request; errInFlight if it is the same
// request still in flight; ErrIdempotencyConflict if it was another.
func replayIn(t Tx, idem Idempotency) error {
	_, inFlight, err := recorded(t, idem)
	if err == nil && inFlight {
		return errInFlight
	}
	return err
}

// recorded reads the request recorded under idem's key. If it is idem's
// request, still in flight, it returns it and true; if there is none,
// false; else, as replayIn, the recorded answer or ErrIdempotencyConflict. A
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
	case r.Status == RecordedResult:
		return r, false, &ReplayError{Result: r.Body, At: r.Created}
	case r.Status == RecordedRefusal && keptError(string(r.Body)) != nil:
		return r, false, &Replayed{Err: keptError(string(r.Body))}
	case r.Status != InFlight:
		// Recorded by another version of lapse, in another form.
		return r, false, ErrIdempotencyConflict
	}
	return r, true, nil
}
