package httpapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/lapsehq/lapse/credential"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// DefaultTokenRefresh is how often, when Config.TokenRefresh is 0, a
// server reads the tokens again from the store: a token created or
// revoked on any instance is honoured or refused by every instance
// within it (plus the time of one read of the tokens table).
const DefaultTokenRefresh = 2 * time.Second

// errUnauthorized: the request carries no token, or one that is unknown
// or revoked, while tokens exist.
var errUnauthorized = errors.New("no valid credential")

// errAuthorizationTwice: the request carries two Authorization headers.
// Which one names the caller would be a guess (the first won before), so
// neither does: 401, which every route taking a credential answers, with
// the challenge's error="invalid_request".
var errAuthorizationTwice = errors.New("authorization given twice")

// forbiddenError: the request's token lacks the scope the route needs.
type forbiddenError struct{ need credential.Scope }

func (e *forbiddenError) Error() string {
	return fmt.Sprintf("the token lacks the %s scope this route needs", e.need)
}

// realm is the realm of the WWW-Authenticate challenge.
const realm = `Bearer realm="lapse"`

// tokens is a server's copy of the store's tokens, by hash, read again
// once it is a refresh old on the server's clock (or the clock moved
// back). Reads happen in the request that finds the copy stale, one at a
// time; the others wait for it, so that no request is served by a copy
// older than refresh.
//
// Whether the server is open (serves without a token) is decided once:
// by Config.Closed, or else at the first read, open if the store holds no
// token. An open server closes for good at the first token it reads; a
// closed one never opens again, not even once every token row is gone
// (then no request is authorized).
type tokens struct {
	store   tokenReader
	refresh time.Duration

	mu     sync.Mutex
	read   time.Time // when the copy was read; zero: never
	byHash map[string]storetype.Token
	closed bool // tokens exist or existed: no open mode
}

// at returns the tokens as of now, reading them again if the copy is
// stale, and whether the server is open.
func (ts *tokens) at(ctx context.Context, now time.Time) (byHash map[string]storetype.Token, open bool, err error) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.read.IsZero() || now.Sub(ts.read) >= ts.refresh || now.Before(ts.read) {
		all, err := ts.store.Tokens(ctx)
		if err != nil {
			return nil, false, fmt.Errorf("httpapi: read tokens: %w", err)
		}
		ts.byHash = make(map[string]storetype.Token, len(all))
		for _, tk := range all {
			ts.byHash[tk.Hash] = tk
		}
		ts.read, ts.closed = now, ts.closed || len(all) > 0
	}
	return ts.byHash, !ts.closed, nil
}

// authorize answers r 401 or 403 and returns false unless it may reach a
// route that needs scope need: its bearer token is live and holds need,
// or the server is open (see tokens) and r is no browser's request from
// elsewhere (see openGuard). Else it returns r with the token's name as
// the actor of what r does (store.WithActor). Two Authorization headers
// are 401, in either mode (errAuthorizationTwice).
func (s *server) authorize(w http.ResponseWriter, r *http.Request, need credential.Scope) (*http.Request, bool) {
	if len(r.Header.Values("Authorization")) > 1 {
		w.Header().Set("WWW-Authenticate", realm+`, error="invalid_request"`)
		s.fail(w, r, errAuthorizationTwice)
		return r, false
	}
	byHash, open, err := s.tokens.at(r.Context(), s.now())
	if err != nil {
		s.fail(w, r, err)
		return r, false
	}
	if open {
		if err := openGuard(r); err != nil {
			s.fail(w, r, err)
			return r, false
		}
		return r, true
	}
	secret, ok := bearer(r)
	tk, known := byHash[credential.Hash(secret)]
	switch {
	case !ok:
		w.Header().Set("WWW-Authenticate", realm)
		s.fail(w, r, errUnauthorized)
	case !known || tk.Revoked():
		w.Header().Set("WWW-Authenticate", realm+`, error="invalid_token"`)
		s.fail(w, r, errUnauthorized)
	case !slices.Contains(tk.Scopes, need):
		w.Header().Set("WWW-Authenticate", fmt.Sprintf(`%s, error="insufficient_scope", scope="%s"`, realm, need))
		s.fail(w, r, &forbiddenError{need})
	default:
		return r.WithContext(store.WithActor(r.Context(), tk.Name)), true
	}
	return r, false
}

// bearer returns the token of r's Authorization header, if it is a
// Bearer one.
func bearer(r *http.Request) (string, bool) {
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	token = strings.TrimSpace(token)
	return token, ok && strings.EqualFold(scheme, "Bearer") && token != ""
}
