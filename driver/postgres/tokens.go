package postgres

import (
	"context"
	"time"

	"github.com/lapsehq/lapse/credential"
	"github.com/lapsehq/lapse/driver/postgres/internal/dbsqlc"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/storetype"
)

// Tokens reads every token, by name.
func (s *Driver) Tokens(ctx context.Context) ([]storetype.Token, error) {
	rows, err := s.readq().ListTokens(ctx)
	return sqlfile.Convert(rows, err, token)
}

// Token reads one token in the transaction.
func (t *tx) Token(name string) (storetype.Token, error) {
	r, err := t.q().GetToken(t.ctx, name)
	return sqlfile.ConvertOne(r, err, token, interpret)
}

// InsertToken stores a new token; false if one of its name exists.
func (t *tx) InsertToken(tk storetype.Token) (bool, error) {
	n, err := t.q().InsertToken(t.ctx, dbsqlc.InsertTokenParams{
		Name: tk.Name, Hash: tk.Hash, Scopes: credential.Join(tk.Scopes), CreatedAt: tk.CreatedAt,
	})
	return n > 0, err
}

// RevokeToken revokes the named token at now unless it is revoked.
func (t *tx) RevokeToken(name string, now time.Time) error {
	return t.q().RevokeToken(t.ctx, dbsqlc.RevokeTokenParams{Now: now, Name: name})
}

func token(r dbsqlc.Token) (storetype.Token, error) {
	return storetype.StoredToken(r.Name, r.Hash, r.Scopes, r.CreatedAt, orZero(r.RevokedAt))
}
