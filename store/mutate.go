package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/storetype"
)

// RequestWait bounds how long idempotent waits for the answer of a request
// under the same key that is still under way, before it answers
// ErrIdempotencyConflict.
const RequestWait = 10 * time.Second

// refusalError is a refusal that leaves a record: the refused mutation's
// writes roll back, and Record then writes, in a transaction of its own,
// what the refusal must leave behind (the order.late_payment event of a
// payment to a closed order), with the refusal under its key if kept.
type refusalError struct {
	Err    error
	Record func(*txn) error
}

func (e *refusalError) Error() string { return e.Err.Error() }
func (e *refusalError) Unwrap() error { return e.Err }

// idempotent runs fn, a mutation, in the write transactions of a backend:
// run runs a function in one transaction (again, if the backend retries
// it) and commits unless the function fails. Every foreground write goes
// through it, so that what an idempotency key does is written once:
//
//   - With no idem, it runs fn; if fn's refusal is a RefusalError, its
//     Record runs in a transaction of its own.
//   - With one, a request already recorded under the key is answered
//     from the record (a *ReplayError of its result, a *Replayed kept
//     refusal, or ErrIdempotencyConflict for another request). Else fn
//     runs, and its result is recorded in the same transaction. A
//     refusal's writes roll back; then, if it is one a key keeps (see
//     kept), it is recorded in a transaction of its own, with a
//     RefusalError's Record.
//   - A concurrent request under the key that records its answer first
//     wins: the other is run again, which replays that answer, waiting
//     up to RequestWait for it to exist, after which it is
//     ErrIdempotencyConflict.
//
// A key holds its request for Idempotency.TTL; past that it is unknown.
func idempotent[T any](ctx context.Context, idem *Idempotency, run func(func(*txn) (T, error)) (T, error), fn func(*txn) (T, error)) (T, error) {
	if idem == nil {
		res, err := run(fn)
		return res, refuse(run, err, nil)
	}
	var zero T
	key := idem.storedKey()
	bound := time.NewTimer(RequestWait)
	defer bound.Stop()
	for attempt := 0; ; attempt++ {
		res, err := run(func(t *txn) (T, error) {
			if err := replayIn(t, *idem); err != nil {
				return zero, err
			}
			res, err := fn(t)
			if err != nil {
				return zero, err
			}
			r, err := idem.result(res)
			if err != nil {
				return zero, err
			}
			return res, t.PutRequest(t.ctx, driver.RequestParams{Key: key, Request: r})
		})
		if err != nil && !waiting(err) && !answered(err) {
			err = refuse(run, err, idem)
		}
		if !waiting(err) {
			return res, err
		}
		select {
		case <-ctx.Done():
			return zero, ctx.Err()
		case <-bound.C:
			return zero, err
		case <-time.After(min(time.Duration(attempt)*10*time.Millisecond, 200*time.Millisecond)):
		}
	}
}

// waiting reports whether err says that another request under the key
// has recorded, or is about to record, the answer to replay.
func waiting(err error) bool {
	return errors.Is(err, driver.ErrRequestTaken) || errors.Is(err, errInFlight)
}

// answered reports whether err answers the request from what its key
// holds: a replay or a conflict.
func answered(err error) bool {
	return replay(err) || errors.Is(err, storetype.ErrIdempotencyConflict)
}

// replay reports whether err is an answer recorded under a key, given
// again: a *ReplayError or a *Replayed.
func replay(err error) bool {
	var (
		result   *ReplayError
		replayed *Replayed
	)
	return errors.As(err, &result) || errors.As(err, &replayed)
}

// refuse records what the refusal err of a mutation leaves, in a
// transaction of its own that run runs: a RefusalError's Record, and, if
// idem is set and err is one a key keeps, the refusal under its key,
// unless an answer was recorded there first. It returns what to answer:
// err, or the answer recorded first (or ErrRequestTaken: look again). A
// record that fails is the store's failure, not the refusal: the error
// returned then wraps the record's error alone and names the refusal in
// its text, so that a caller answers it as a failure (and logs it), and
// a retry records it, rather than answer the refusal with nothing
// recorded.
func refuse[T any](run func(func(*txn) (T, error)) (T, error), err error, idem *Idempotency) error {
	var refusal *refusalError
	record := errors.As(err, &refusal)
	var (
		resp driver.Request
		keep bool
	)
	if err != nil && idem != nil {
		resp, keep = idem.refusal(err)
	}
	if !record && !keep {
		return err
	}
	_, rerr := run(func(t *txn) (T, error) {
		var zero T
		if keep {
			if err := replayIn(t, *idem); err != nil {
				return zero, err
			}
		}
		if record {
			if err := refusal.Record(t); err != nil {
				return zero, err
			}
		}
		if keep {
			return zero, t.PutRequest(t.ctx, driver.RequestParams{Key: idem.storedKey(), Request: resp})
		}
		return zero, nil
	})
	switch {
	case rerr == nil:
		return err
	case answered(rerr):
		return rerr
	}
	return fmt.Errorf("record refusal %q: %w", err, rerr)
}
