package postgres

import (
	"context"
	"time"

	"github.com/lapsehq/lapse/remind"
)

// User returns one user; store.ErrNotFound if lapse has not met them.
func (s *Driver) User(ctx context.Context, id string) (remind.User, error) {
	u, err := scanUser(s.readRow(ctx, "GetUser", id))
	return u, interpret(err)
}

// User reads a user; store.ErrNotFound if lapse has not met them.
func (t *tx) User(id string) (remind.User, error) {
	u, err := scanUser(t.queryRow("GetUser", id))
	return u, interpret(err)
}

// PutUser stores u's timezone and channels, keeping their last activity,
// and returns the user as stored.
func (t *tx) PutUser(u remind.User) (remind.User, error) {
	channels := make([]string, len(u.Channels))
	for i, c := range u.Channels {
		channels[i] = string(c)
	}
	return scanUser(t.queryRow("PutUser", u.ID, u.Timezone, channels))
}

// TouchUser records that a user acted at now, creating them with the
// default profile if new; their last activity never moves back.
func (t *tx) TouchUser(id string, now time.Time) error {
	_, err := t.exec("TouchUser", id, now)
	return err
}

func scanUser(row scanner) (remind.User, error) {
	var (
		u        remind.User
		channels []string
		active   *time.Time
	)
	if err := row.Scan(&u.ID, &u.Timezone, &channels, &active); err != nil {
		return u, err
	}
	u.LastActiveAt = orZero(active)
	u.Channels = make([]remind.Channel, len(channels))
	for i, c := range channels {
		u.Channels[i] = remind.Channel(c)
	}
	return u, nil
}
