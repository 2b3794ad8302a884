package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"

	"github.com/lapsehq/lapse/remind"
	"github.com/lapsehq/lapse/store"
)

// PutUser stores a user's profile and re-times their planned reminders.
func (s *Store) PutUser(ctx context.Context, p store.PutUserParams) (remind.User, error) {
	if err := p.User.Validate(); err != nil {
		return remind.User{}, err
	}
	channels, _ := json.Marshal(append([]remind.Channel{}, p.User.Channels...))
	return inTx(ctx, s, func(t *tx) (remind.User, error) {
		u, err := scanUser(t.queryRow("PutUser", p.User.ID, p.User.Timezone, string(channels)))
		if err != nil {
			return u, err
		}
		return u, t.retimeReminders(u, p.Now)
	})
}

// User returns one user.
func (s *Store) User(ctx context.Context, id string) (remind.User, error) {
	u, err := scanUser(s.readRow(ctx, "GetUser", id))
	return u, interpret(err)
}

// Touch records that user acted at now.
func (t *tx) Touch(user string, now time.Time) error {
	_, err := scanUser(t.queryRow("TouchUser", user, ms(now)))
	return err
}

// user returns a user as the reminder policy sees them: one lapse has not
// met yet has the default profile and no activity.
func (t *tx) user(id string) (remind.User, error) {
	u, err := scanUser(t.queryRow("GetUser", id))
	if errors.Is(err, sql.ErrNoRows) {
		return remind.User{ID: id, Timezone: "UTC"}, nil
	}
	return u, err
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
