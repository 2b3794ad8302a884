package store

import (
	"context"
	"errors"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/storetype"
)

// read runs fn, a read outside a transaction, on the driver's executor,
// and returns its error as the driver classifies a transaction's (see
// classify): an outage is storetype.ErrUnavailable, as a write's is, not
// the backend's raw error. A read that met an outage runs again, paced
// and bounded as run's transactions are (see outageRetry): it has no
// side effect to repeat. fn starts afresh each time.
func read[T any](ctx context.Context, db *DB, fn func(driver.Executor) (T, error)) (T, error) {
	var down outageRetry
	for {
		res, err := fn(db.d.Executor())
		out := db.classify(err)
		if !errors.Is(out, storetype.ErrUnavailable) || !down.again(ctx, err) {
			return res, out
		}
	}
}

// classify returns err, of a read outside a transaction, as the driver's
// Classify turns a transaction's; a read has no deadlock to retry.
func (db *DB) classify(err error) error {
	out, _ := db.d.Classify(err)
	return out
}
