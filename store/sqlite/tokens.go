package sqlite

import (
	"context"
	"database/sql"
	"time"

	"github.com/lapsehq/lapse/credential"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/store/sqlfile"
)

// Tokens reads every token, by name.
func (s *Driver) Tokens(ctx context.Context) ([]store.Token, error) {
	rows, err := s.read(ctx, "ListTokens")
	return sqlfile.Collect(rows, err, scanToken)
}

// Token reads one token in the transaction.
func (t *tx) Token(name string) (store.Token, error) {
	tk, err := scanToken(t.queryRow("GetToken", name))
	return tk, interpret(err)
}

// InsertToken stores a new token; false if one of its name exists.
func (t *tx) InsertToken(tk store.Token) (bool, error) {
	return t.execOne("InsertToken", tk.Name, tk.Hash, credential.Join(tk.Scopes), ms(tk.CreatedAt))
}

// RevokeToken revokes the named token at now unless it is revoked.
func (t *tx) RevokeToken(name string, now time.Time) error {
	_, err := t.exec("RevokeToken", ms(now), name)
	return err
}

func scanToken(row sqlfile.Scanner) (store.Token, error) {
	var (
		name, hash, scopes string
		created            int64
		revoked            sql.NullInt64
	)
	if err := row.Scan(&name, &hash, &scopes, &created, &revoked); err != nil {
		return store.Token{}, err
	}
	return store.StoredToken(name, hash, scopes, at(created), atNull(revoked))
}
