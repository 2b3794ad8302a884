package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"

	"github.com/lapsehq/lapse/remind"
)

// User reads one user.
func (s *Driver) User(ctx context.Context, id string) (remind.User, error) {
	u, err := scanUser(s.readRow(ctx, "GetUser", id))
	return u, interpret(err)
}

// User reads one user in the transaction.
func (t *tx) User(id string) (remind.User, error) {
	u, err := scanUser(t.queryRow("GetUser", id))
	return u, interpret(err)
}

// PutUser stores a user's timezone and channels.
func (t *tx) PutUser(u remind.User) (remind.User, error) {
	channels, _ := json.Marshal(append([]remind.Channel{}, u.Channels...))
	return scanUser(t.queryRow("PutUser", u.ID, u.Timezone, string(channels)))
}

// TouchUser records that a user acted at now.
func (t *tx) TouchUser(id string, now time.Time) error {
	_, err := scanUser(t.queryRow("TouchUser", id, ms(now)))
	return err
}

func scanUser(row scanner) (remind.User, error) {
	var (
		u        remind.User
		channels string
		active   sql.NullInt64
	)
	if err := row.Scan(&u.ID, &u.Timezone, &channels, &active); err != nil {
		return u, err
	}
	u.LastActiveAt = atNull(active)
	return u, json.Unmarshal([]byte(channels), &u.Channels)
}
