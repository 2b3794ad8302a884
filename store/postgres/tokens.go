package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lapsehq/lapse/credential"
	"github.com/lapsehq/lapse/store"
)

// Tokens reads every token, by name.
func (s *Driver) Tokens(ctx context.Context) ([]store.Token, error) {
	rows, err := s.read(ctx, "ListTokens")
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.Token, error) { return scanToken(row) })
}

// Token reads one token in the transaction.
func (t *tx) Token(name string) (store.Token, error) {
	tk, err := scanToken(t.queryRow("GetToken", name))
	return tk, interpret(err)
}

// InsertToken stores a new token; false if one of its name exists.
func (t *tx) InsertToken(tk store.Token) (bool, error) {
	return t.execOne("InsertToken", tk.Name, tk.Hash, credential.Join(tk.Scopes), tk.CreatedAt)
}

// RevokeToken revokes the named token at now unless it is revoked.
func (t *tx) RevokeToken(name string, now time.Time) error {
	_, err := t.exec("RevokeToken", now, name)
	return err
}

func scanToken(row scanner) (store.Token, error) {
	var (
		name, hash, scopes string
		created            time.Time
		revoked            *time.Time
	)
	if err := row.Scan(&name, &hash, &scopes, &created, &revoked); err != nil {
		return store.Token{}, err
	}
	return store.StoredToken(name, hash, scopes, created, orZero(revoked))
}
