package sqlite

import (
	"context"
	"encoding/json"
	"time"

	"github.com/lapsehq/lapse/remind"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/sqlite/internal/dbsqlc"
)

// User reads one user.
func (s *Driver) User(ctx context.Context, id string) (remind.User, error) {
	r, err := s.readq().GetUser(ctx, id)
	return sqlfile.ConvertOne(r, err, user, interpret)
}

// User reads one user in the transaction.
func (t *tx) User(id string) (remind.User, error) {
	r, err := t.q().GetUser(t.ctx, id)
	return sqlfile.ConvertOne(r, err, user, interpret)
}

// PutUser stores a user's timezone and channels.
func (t *tx) PutUser(u remind.User) (remind.User, error) {
	channels, _ := json.Marshal(append([]remind.Channel{}, u.Channels...))
	r, err := t.q().PutUser(t.ctx, dbsqlc.PutUserParams{ID: u.ID, Timezone: u.Timezone, Channels: string(channels)})
	if err != nil {
		return remind.User{}, err
	}
	return user(r)
}

// TouchUser records that a user acted at now.
func (t *tx) TouchUser(id string, now time.Time) error {
	return t.q().TouchUser(t.ctx, dbsqlc.TouchUserParams{ID: id, Now: nullMS(now)})
}

func user(r dbsqlc.User) (remind.User, error) {
	u := remind.User{ID: r.ID, Timezone: r.Timezone, LastActiveAt: atNull(r.LastActiveAt)}
	return u, json.Unmarshal([]byte(r.Channels), &u.Channels)
}
