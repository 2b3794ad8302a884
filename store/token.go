package store

import (
	"errors"
	"time"

	"github.com/lapsehq/lapse/credential"
)

// ErrTokenExists: a token of that name exists, live or revoked.
var ErrTokenExists = errors.New("a token of that name exists (a revoked token keeps its name)")

// CreateTokenParams are the inputs of CreateToken.
type CreateTokenParams struct {
	Name   string
	Scopes []credential.Scope
	Now    time.Time
}

// Validate checks a token to create: its name, and one scope at least.
func (p CreateTokenParams) Validate() error {
	if err := credential.ValidName(p.Name); err != nil {
		return err
	}
	if len(p.Scopes) == 0 {
		return errors.New("a token needs one scope at least")
	}
	return nil
}

// RevokeTokenParams are the inputs of RevokeToken.
type RevokeTokenParams struct {
	Name string
	Now  time.Time
}
