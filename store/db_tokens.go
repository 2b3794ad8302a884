package store

import (
	"context"
	"fmt"

	"github.com/lapsehq/lapse/credential"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/storetype"
)

// CreateToken stores a new token of p.Name with p.Scopes and returns it
// with its secret, which is stored only as its hash: the caller shows it
// once.
func (db *DB) CreateToken(ctx context.Context, p CreateTokenParams) (storetype.Token, string, error) {
	if err := p.Validate(); err != nil {
		return storetype.Token{}, "", err
	}
	secret := credential.New()
	tk := storetype.Token{Name: p.Name, Hash: credential.Hash(secret), Scopes: p.Scopes, CreatedAt: p.Now}
	_, err := mutate(ctx, db, nil, func(t *txn) (struct{}, error) {
		ok, err := t.InsertToken(t.ctx, tk)
		if err == nil && !ok {
			err = fmt.Errorf("token %q: %w", p.Name, ErrTokenExists)
		}
		return struct{}{}, err
	})
	if err != nil {
		return storetype.Token{}, "", err
	}
	return tk, secret, nil
}

// RevokeToken revokes the token p.Name at p.Now, unless it is revoked
// already, and returns it.
func (db *DB) RevokeToken(ctx context.Context, p RevokeTokenParams) (storetype.Token, error) {
	return mutate(ctx, db, nil, func(t *txn) (storetype.Token, error) {
		if err := t.RevokeToken(t.ctx, driver.RevokeTokenParams{Name: p.Name, Now: p.Now}); err != nil {
			return storetype.Token{}, err
		}
		return t.Token(t.ctx, p.Name)
	})
}

// Tokens lists every token, live and revoked, by name.
func (db *DB) Tokens(ctx context.Context) ([]storetype.Token, error) {
	return read(ctx, db, func(x driver.Executor) ([]storetype.Token, error) { return x.Tokens(ctx) })
}
