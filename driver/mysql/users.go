package mysql

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"

	"github.com/lapsehq/lapse/remind"
	"github.com/lapsehq/lapse/driver/mysql/internal/dbsqlc"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
)

// User returns one user; store.ErrNotFound if lapse has not met them.
func (s *Driver) User(ctx context.Context, id string) (remind.User, error) {
	r, err := s.readq().GetUser(ctx, id)
	return sqlfile.ConvertOne(r, err, user, interpret)
}

// User reads a user; store.ErrNotFound if lapse has not met them.
func (t *tx) User(id string) (remind.User, error) {
	r, err := t.q().GetUser(t.ctx, id)
	return sqlfile.ConvertOne(r, err, user, interpret)
}

// PutUser stores u's timezone and channels, keeping their last activity,
// and returns the user as stored.
func (t *tx) PutUser(u remind.User) (remind.User, error) {
	channels, err := json.Marshal(append([]remind.Channel{}, u.Channels...))
	if err != nil {
		return u, err
	}
	if err := t.q().PutUser(t.ctx, dbsqlc.PutUserParams{ID: u.ID, Timezone: u.Timezone, Channels: string(channels)}); err != nil {
		return u, err
	}
	return t.User(u.ID)
}

// TouchUser records that a user acted at now, creating them with the
// default profile if new; their last activity never moves back.
func (t *tx) TouchUser(id string, now time.Time) error {
	return t.q().TouchUser(t.ctx, dbsqlc.TouchUserParams{ID: id, Now: sql.NullTime{Time: now, Valid: true}})
}

func user(r dbsqlc.User) (remind.User, error) {
	u := remind.User{ID: r.ID, Timezone: r.Timezone, LastActiveAt: utc(r.LastActiveAt)}
	return u, json.Unmarshal([]byte(r.Channels), &u.Channels)
}
