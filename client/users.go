package client

import (
	"context"
	"net/http"
	"time"
)

// User is a user's reminder profile.
type User struct {
	ID string `json:"id"`
	// Timezone is an IANA name; "" in PutUser means UTC.
	Timezone string `json:"timezone"`
	// Channels are where reminders go beside in_app: sms, push, email.
	Channels []string `json:"channels"`
	// LastActiveAt is zero until the user is seen.
	LastActiveAt time.Time `json:"last_active_at"`
}

// PutUser replaces the profile of u.ID.
func (c *Client) PutUser(ctx context.Context, u User) (User, error) {
	in := struct {
		Timezone string   `json:"timezone,omitempty"`
		Channels []string `json:"channels"`
	}{u.Timezone, u.Channels}
	return decoded[User](ctx, c, call{method: http.MethodPut, path: "/v1/users/" + seg(u.ID), in: in})
}

// User reads a user's profile.
func (c *Client) User(ctx context.Context, id string) (User, error) {
	return decoded[User](ctx, c, call{method: http.MethodGet, path: "/v1/users/" + seg(id)})
}
