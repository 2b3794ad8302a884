package sqlite

import (
	"context"
	"encoding/json"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/sqlite/internal/dbsqlc"
	"github.com/lapsehq/lapse/remind"
)

// User reads one user.
func (e *executor) User(ctx context.Context, id string) (remind.User, error) {
	r, err := e.q().GetUser(ctx, id)
	return sqlfile.ConvertOne(r, err, user, interpret)
}

// PutUser stores a user's timezone and channels.
func (e *executor) PutUser(ctx context.Context, u remind.User) (remind.User, error) {
	channels, _ := json.Marshal(append([]remind.Channel{}, u.Channels...))
	r, err := e.q().PutUser(ctx, dbsqlc.PutUserParams{ID: u.ID, Timezone: u.Timezone, Channels: string(channels)})
	if err != nil {
		return remind.User{}, err
	}
	return user(r)
}

// TouchUser records that user p.ID acted at p.Now.
func (e *executor) TouchUser(ctx context.Context, p driver.TouchUserParams) error {
	return e.q().TouchUser(ctx, dbsqlc.TouchUserParams{ID: p.ID, Now: nullMS(p.Now)})
}

func user(r dbsqlc.User) (remind.User, error) {
	u := remind.User{ID: r.ID, Timezone: r.Timezone, LastActiveAt: atNull(r.LastActiveAt)}
	return u, json.Unmarshal([]byte(r.Channels), &u.Channels)
}
