package store

import (
	"context"
	"errors"
	"time"
)

// outageWait is how long run keeps retrying a transaction that met an
// outage (storetype.ErrUnavailable) before it returns it: long enough to
// ride out a database restart's or a failover's first seconds for the
// requests that come last, short enough that a caller hears of an
// outage while its client still waits.
const outageWait = 2 * time.Second

// commitError is the error of a Commit: whether the transaction committed
// is unknown when it is an outage (the connection may have broken after
// the server committed), so run does not run it again; the caller's retry
// under its idempotency key finds out.
type commitError struct{ err error }

func (e *commitError) Error() string { return e.err.Error() }
func (e *commitError) Unwrap() error { return e.err }

// outageRetry paces the retries of one run through an outage.
type outageRetry struct {
	since time.Time
	wait  time.Duration
}

// again waits before the next attempt of a transaction that met an outage
// with err and reports whether to make it: not after a commit (see
// commitError), past outageWait since the first outage, nor once ctx ends.
func (r *outageRetry) again(ctx context.Context, err error) bool {
	if errors.As(err, new(*commitError)) {
		return false
	}
	if r.since.IsZero() {
		r.since, r.wait = time.Now(), 50*time.Millisecond
	}
	if time.Since(r.since)+r.wait > outageWait {
		return false
	}
	select {
	case <-ctx.Done():
		return false
	case <-time.After(r.wait):
	}
	r.wait = min(2*r.wait, 500*time.Millisecond)
	return true
}
