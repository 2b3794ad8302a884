package postgres

import (
	"context"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/postgres/internal/dbsqlc"
	"github.com/lapsehq/lapse/remind"
)

// User reads a user; storetype.ErrNotFound if lapse has not met them.
func (e *executor) User(ctx context.Context, id string) (remind.User, error) {
	r, err := e.sqlc().GetUser(ctx, id)
	return user(r), interpret(err)
}

// PutUser stores u's timezone and channels, keeping their last activity,
// and returns the user as stored.
func (e *executor) PutUser(ctx context.Context, u remind.User) (remind.User, error) {
	channels := make([]string, len(u.Channels))
	for i, c := range u.Channels {
		channels[i] = string(c)
	}
	r, err := e.sqlc().PutUser(ctx, dbsqlc.PutUserParams{ID: u.ID, Timezone: u.Timezone, Channels: channels})
	return user(r), err
}

// TouchUser records that user p.ID acted at p.Now, creating them with the
// default profile if new; their last activity never moves back.
func (e *executor) TouchUser(ctx context.Context, p driver.TouchUserParams) error {
	return e.sqlc().TouchUser(ctx, dbsqlc.TouchUserParams{ID: p.ID, Now: p.Now})
}

func user(r dbsqlc.User) remind.User {
	u := remind.User{ID: r.ID, Timezone: r.Timezone, LastActiveAt: orZero(r.LastActiveAt)}
	u.Channels = make([]remind.Channel, len(r.Channels))
	for i, c := range r.Channels {
		u.Channels[i] = remind.Channel(c)
	}
	return u
}
