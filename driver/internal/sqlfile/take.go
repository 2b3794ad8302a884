package sqlfile

import (
	"context"
	"database/sql"
	"errors"
)

// TakeOne reads the row of key with get and, if there is one, deletes it
// with del, in the caller's transaction: a take in two statements, where
// the database has no DELETE … RETURNING. ok is false, with no error,
// where there is no row.
func TakeOne[K, R any](ctx context.Context, key K, get func(context.Context, K) (R, error), del func(context.Context, K) error) (r R, ok bool, err error) {
	r, err = get(ctx, key)
	if errors.Is(err, sql.ErrNoRows) {
		return r, false, nil
	}
	if err == nil {
		err = del(ctx, key)
	}
	return r, err == nil, err
}
