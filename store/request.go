package store

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/storetype"
)

// errInFlight: the request recorded under the key is this same request,
// still under way in other transactions.
var errInFlight = fmt.Errorf("%w: its first request is still in flight", storetype.ErrIdempotencyConflict)

// result is the Request recording res as the result of idem's request.
func (idem Idempotency) result(res any) (driver.Request, error) {
	body, err := json.Marshal(res)
	return idem.request(driver.RecordedResult, body), err
}

// refusal is the Request recording err as the answer to idem's request,
// and whether err is one a key keeps.
func (idem Idempotency) refusal(err error) (driver.Request, bool) {
	code := keptCode(err)
	return idem.request(driver.RecordedRefusal, []byte(code)), code != ""
}

// request is the Request recording body of status for idem's request.
func (idem Idempotency) request(status int, body []byte) driver.Request {
	if body == nil {
		body = []byte{} // a nil slice binds as NULL; body is NOT NULL
	}
	return driver.Request{Fingerprint: idem.Fingerprint, Status: status, Body: body, Created: idem.Now}
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
func replayIn(t *txn, idem Idempotency) error {
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
func recorded(t *txn, idem Idempotency) (driver.Request, bool, error) {
	key := idem.storedKey()
	r, err := t.Request(t.ctx, key)
	switch {
	case errors.Is(err, storetype.ErrNotFound):
		return r, false, nil
	case err != nil:
		return r, false, err
	case !r.Created.After(idem.expiry()):
		return driver.Request{}, false, t.ForgetRequest(t.ctx, driver.ForgetRequestParams{Key: key, Before: idem.expiry()})
	case r.Fingerprint != idem.Fingerprint:
		return r, false, storetype.ErrIdempotencyConflict
	case r.Status == driver.RecordedResult:
		return r, false, durably(t, key, r, &ReplayError{Result: r.Body, At: r.Created})
	case r.Status == driver.RecordedRefusal && keptError(string(r.Body)) != nil:
		return r, false, durably(t, key, r, &Replayed{Err: keptError(string(r.Body))})
	case r.Status != driver.InFlight:
		// Recorded by another version of lapse, in another form.
		return r, false, storetype.ErrIdempotencyConflict
	}
	return r, true, nil
}

// durably returns replay, the answer recorded as r under key, once t has
// written r again as it is: t then commits (see attempt) before the
// answer is given. A record can be read before it is durable (on
// PostgreSQL, a commit still waiting for its synchronous standby is seen
// by other transactions), and a retry answered from such a record would
// acknowledge a write that a failover can still take back; the rewrite's
// commit comes after the record's, so it waits for the standby to have
// both.
func durably(t *txn, key string, r driver.Request, replay error) error {
	if err := t.FinishRequest(t.ctx, driver.RequestParams{Key: key, Request: r}); err != nil {
		return err
	}
	return replay
}
