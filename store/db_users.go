package store

import (
	"context"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/remind"
)

// PutUser stores a user's profile and re-times their planned reminders.
func (db *DB) PutUser(ctx context.Context, p PutUserParams) (remind.User, error) {
	return validated(p, func() (remind.User, error) {
		return mutate(ctx, db, nil, func(t *txn) (remind.User, error) {
			u, err := t.PutUser(t.ctx, p.User)
			if err != nil {
				return u, err
			}
			return u, t.retimeReminders(u, p.Now)
		})
	})
}

// User returns a user known by a profile or by an action of theirs.
func (db *DB) User(ctx context.Context, id string) (remind.User, error) {
	return read(ctx, db, func(x driver.Executor) (remind.User, error) { return x.User(ctx, id) })
}
