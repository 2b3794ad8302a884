package postgres

import (
	"context"
	"time"

	"github.com/lapsehq/lapse/remind"
	"github.com/lapsehq/lapse/driver/postgres/internal/dbsqlc"
)

// User returns one user; store.ErrNotFound if lapse has not met them.
func (s *Driver) User(ctx context.Context, id string) (remind.User, error) {
	r, err := s.readq().GetUser(ctx, id)
	return user(r), interpret(err)
}

// User reads a user; store.ErrNotFound if lapse has not met them.
func (t *tx) User(id string) (remind.User, error) {
	r, err := t.q().GetUser(t.ctx, id)
	return user(r), interpret(err)
}

// PutUser stores u's timezone and channels, keeping their last activity,
// and returns the user as stored.
func (t *tx) PutUser(u remind.User) (remind.User, error) {
	channels := make([]string, len(u.Channels))
	for i, c := range u.Channels {
		channels[i] = string(c)
	}
	r, err := t.q().PutUser(t.ctx, dbsqlc.PutUserParams{ID: u.ID, Timezone: u.Timezone, Channels: channels})
	return user(r), err
}

// TouchUser records that a user acted at now, creating them with the
// default profile if new; their last activity never moves back.
func (t *tx) TouchUser(id string, now time.Time) error {
	return t.q().TouchUser(t.ctx, dbsqlc.TouchUserParams{ID: id, Now: now})
}

func user(r dbsqlc.User) remind.User {
	u := remind.User{ID: r.ID, Timezone: r.Timezone, LastActiveAt: orZero(r.LastActiveAt)}
	u.Channels = make([]remind.Channel, len(r.Channels))
	for i, c := range r.Channels {
		u.Channels[i] = remind.Channel(c)
	}
	return u
}
