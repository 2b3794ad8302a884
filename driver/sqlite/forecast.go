package sqlite

import (
	"context"
	"database/sql"
	"time"

	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/sqlite/internal/dbsqlc"
	"github.com/lapsehq/lapse/storetype"
)

// Forecast counts what falls due in each bucket of p, by kind, of
// template p.TemplateID if it is set.
func (e *executor) Forecast(ctx context.Context, p storetype.ForecastParams) ([]storetype.DueCount, error) {
	name, args := "Forecast", []any{ms(p.From), ms(p.End()), p.Width.Milliseconds()}
	if p.TemplateID != "" {
		name, args = "TemplateForecast", append(args, p.TemplateID)
	}
	rows, err := e.query(ctx, name, args...)
	return sqlfile.Collect(rows, err, sqlfile.ScanDueCount)
}

// ShardLeases reads every shard's lease.
func (e *executor) ShardLeases(ctx context.Context) ([]storetype.ShardLease, error) {
	rows, err := e.q().ShardLeases(ctx)
	return sqlfile.Convert(rows, err, func(r dbsqlc.Lease) (storetype.ShardLease, error) {
		return storetype.ShardLease{Shard: int(r.Shard), Holder: r.Holder, Token: r.Token, ExpiresAt: at(r.ExpiresAt)}, nil
	})
}

// Instances reads the instances seen within d, by name.
func (e *executor) Instances(ctx context.Context, d time.Duration) ([]storetype.Instance, error) {
	rows, err := e.query(ctx, "Instances", d.Milliseconds())
	return sqlfile.Collect(rows, err, func(row sqlfile.Scanner) (storetype.Instance, error) {
		var (
			in           storetype.Instance
			seen         int64
			skew, skewAt sql.NullInt64
		)
		err := row.Scan(&in.Name, &seen, &skew, &skewAt)
		in.SeenAt, in.Skew = at(seen), time.Duration(skew.Int64)*time.Millisecond
		if skewAt.Valid {
			in.SkewAt = at(skewAt.Int64)
		}
		return in, err
	})
}
