package mysql

import (
	"context"
	"database/sql"
	"encoding/json"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/mysql/internal/dbsqlc"
	"github.com/lapsehq/lapse/remind"
)

// User reads a user; storetype.ErrNotFound if lapse has not met them.
func (e *executor) User(ctx context.Context, id string) (remind.User, error) {
	r, err := e.sq().GetUser(ctx, id)
	return sqlfile.ConvertOne(r, err, user, interpret)
}

// PutUser stores u's timezone and channels, keeping their last activity,
// and returns the user as stored.
func (e *executor) PutUser(ctx context.Context, u remind.User) (remind.User, error) {
	channels, err := json.Marshal(append([]remind.Channel{}, u.Channels...))
	if err != nil {
		return u, err
	}
	if err := e.sq().PutUser(ctx, dbsqlc.PutUserParams{ID: u.ID, Timezone: u.Timezone, Channels: string(channels)}); err != nil {
		return u, err
	}
	return e.User(ctx, u.ID)
}

// TouchUser records that user p.ID acted at p.Now, creating them with the
// default profile if new; their last activity never moves back.
func (e *executor) TouchUser(ctx context.Context, p driver.TouchUserParams) error {
	return e.later().TouchUser(ctx, dbsqlc.TouchUserParams{ID: p.ID, Now: sql.NullTime{Time: p.Now, Valid: true}})
}

func user(r dbsqlc.User) (remind.User, error) {
	u := remind.User{ID: r.ID, Timezone: r.Timezone, LastActiveAt: utc(r.LastActiveAt)}
	return u, json.Unmarshal([]byte(r.Channels), &u.Channels)
}
