package mysql

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"

	"github.com/lapsehq/lapse/remind"
)

// User returns one user; store.ErrNotFound if lapse has not met them.
func (s *Driver) User(ctx context.Context, id string) (remind.User, error) {
	u, err := scanUser(s.queryRow(ctx, "GetUser", id))
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
	channels, err := json.Marshal(append([]remind.Channel{}, u.Channels...))
	if err != nil {
		return u, err
	}
	if _, err := t.exec("PutUser", u.ID, u.Timezone, string(channels)); err != nil {
		return u, err
	}
	return t.User(u.ID)
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
		channels string
		active   sql.NullTime
	)
	if err := row.Scan(&u.ID, &u.Timezone, &channels, &active); err != nil {
		return u, err
	}
	u.LastActiveAt = utc(active)
	return u, json.Unmarshal([]byte(channels), &u.Channels)
}
