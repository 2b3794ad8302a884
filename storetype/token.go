package storetype

import (
	"fmt"
	"time"

	"github.com/lapsehq/lapse/credential"
)

// Token is an API credential as stored: its name, the hash of its secret
// (credential.Hash; the secret itself is never stored), its scopes, and
// when it was created and, if it was, revoked. A revoked token stays, so
// that its name is never reused for another credential.
type Token struct {
	Name      string
	Hash      string
	Scopes    []credential.Scope
	CreatedAt time.Time
	// RevokedAt is zero while the token is live.
	RevokedAt time.Time
}

// Revoked reports whether the token is revoked.
func (tk Token) Revoked() bool { return !tk.RevokedAt.IsZero() }

// StoredToken is the token a driver read: scopes as the comma-separated
// list it stores (credential.Join), revoked zero for NULL.
func StoredToken(name, hash, scopes string, created, revoked time.Time) (Token, error) {
	ss, err := credential.ParseScopes(scopes)
	if err != nil {
		return Token{}, fmt.Errorf("token %q: %w", name, err)
	}
	return Token{Name: name, Hash: hash, Scopes: ss, CreatedAt: created.UTC(), RevokedAt: revoked.UTC()}, nil
}
