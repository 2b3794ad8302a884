package httpapi

import (
	"net/http"

	"github.com/lapsehq/lapse/remind"
	"github.com/lapsehq/lapse/store"
)

// userRequest is the body of PUT /v1/users/{user_id}.
type userRequest struct {
	Timezone *string  `json:"timezone"`
	Channels []string `json:"channels"`
}

// decodeUser returns the profile a PUT sets for user id. PUT replaces the
// profile: timezone defaults to UTC, channels to none (in_app only).
func decodeUser(id string, body []byte) (remind.User, error) {
	req, err := decodeJSON[userRequest](body)
	if err != nil {
		return remind.User{}, err
	}
	u := remind.User{ID: id, Timezone: "UTC"}
	if req.Timezone != nil {
		u.Timezone = *req.Timezone
	}
	u.Channels, err = remind.ParseChannels(req.Channels)
	return u, err
}

// userJSON is a user as the API writes it.
type userJSON struct {
	ID           string   `json:"id"`
	Timezone     string   `json:"timezone"`
	Channels     []string `json:"channels"`
	LastActiveAt *string  `json:"last_active_at"`
}

func userView(u remind.User) userJSON {
	v := userJSON{ID: u.ID, Timezone: u.Timezone, Channels: []string{}, LastActiveAt: formatOptionalTime(u.LastActiveAt)}
	for _, ch := range u.Channels {
		v.Channels = append(v.Channels, string(ch))
	}
	return v
}

// putUser serves PUT /v1/users/{user_id}: PUT is idempotent by itself, so
// it takes no Idempotency-Key.
func (s *server) putUser(w http.ResponseWriter, r *http.Request) {
	body, err := readBody(w, r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	u, err := decodeUser(r.PathValue("user_id"), body)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if u, err = s.store.PutUser(r.Context(), store.PutUserParams{User: u, Now: s.now()}); err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, userView(u))
}

// getUser serves GET /v1/users/{user_id}.
func (s *server) getUser(w http.ResponseWriter, r *http.Request) {
	u, err := s.store.User(r.Context(), r.PathValue("user_id"))
	s.writeResult(w, r, err, func() any { return userView(u) })
}
