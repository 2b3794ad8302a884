package mysql

import (
	"context"
	"database/sql"
	"time"

	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/mysql/internal/dbsqlc"
	"github.com/lapsehq/lapse/storetype"
)

// Forecast counts what falls due in each bucket of p, by kind, of
// template p.TemplateID if it is set.
func (e *executor) Forecast(ctx context.Context, p storetype.ForecastParams) ([]storetype.DueCount, error) {
	from, end, width := p.From, p.End(), p.Width.Milliseconds()
	name, args := "Forecast", []any{from, width, from, end, from, width, from, end, from, width, from, end}
	if tp := p.TemplateID; tp != "" {
		name, args = "TemplateForecast", []any{from, width, from, end, tp, from, width, from, end, tp}
	}
	rows, err := e.query(ctx, name, args...)
	return sqlfile.Collect(rows, err, sqlfile.ScanDueCount)
}

// ShardLeases reads every shard's lease.
func (e *executor) ShardLeases(ctx context.Context) ([]storetype.ShardLease, error) {
	rows, err := e.sq().ShardLeases(ctx)
	return sqlfile.Convert(rows, err, func(r dbsqlc.ShardLeasesRow) (storetype.ShardLease, error) {
		return storetype.ShardLease{Shard: int(r.Shard), Holder: r.Holder, Token: r.Token, ExpiresAt: r.ExpiresAt}, nil
	})
}

// Instances reads the instances seen within d, by name.
func (e *executor) Instances(ctx context.Context, d time.Duration) ([]storetype.Instance, error) {
	rows, err := e.query(ctx, "Instances", d.Microseconds())
	return sqlfile.Collect(rows, err, func(row sqlfile.Scanner) (in storetype.Instance, err error) {
		var (
			skew   sql.NullInt64
			skewAt sql.NullTime
		)
		err = row.Scan(&in.Name, &in.SeenAt, &skew, &skewAt)
		in.SeenAt = in.SeenAt.UTC()
		if skew.Valid && skewAt.Valid {
			in.Skew, in.SkewAt = time.Duration(skew.Int64)*time.Millisecond, skewAt.Time.UTC()
		}
		return in, err
	})
}
