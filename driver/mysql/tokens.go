package mysql

import (
	"context"
	"database/sql"

	"github.com/lapsehq/lapse/credential"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/mysql/internal/dbsqlc"
	"github.com/lapsehq/lapse/storetype"
)

// Tokens reads every token, by name.
func (e *executor) Tokens(ctx context.Context) ([]storetype.Token, error) {
	rows, err := e.sq().ListTokens(ctx)
	return sqlfile.Convert(rows, err, token)
}

// Token reads one token.
func (e *executor) Token(ctx context.Context, name string) (storetype.Token, error) {
	r, err := e.sq().GetToken(ctx, name)
	return sqlfile.ConvertOne(r, err, token, interpret)
}

// InsertToken stores a new token; false if one of its name exists.
func (e *executor) InsertToken(ctx context.Context, tk storetype.Token) (bool, error) {
	n, err := e.sq().InsertToken(ctx, dbsqlc.InsertTokenParams{
		Name: tk.Name, Hash: tk.Hash, Scopes: credential.Join(tk.Scopes), CreatedAt: tk.CreatedAt,
	})
	return n > 0, err
}

// RevokeToken revokes token p.Name at p.Now unless it is revoked.
func (e *executor) RevokeToken(ctx context.Context, p driver.RevokeTokenParams) error {
	return e.sq().RevokeToken(ctx, dbsqlc.RevokeTokenParams{Now: sql.NullTime{Time: p.Now, Valid: true}, Name: p.Name})
}

func token(r dbsqlc.Token) (storetype.Token, error) {
	return storetype.StoredToken(r.Name, r.Hash, r.Scopes, r.CreatedAt, utc(r.RevokedAt))
}
