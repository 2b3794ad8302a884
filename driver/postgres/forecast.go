package postgres

import (
	"context"
	"time"

	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/postgres/internal/dbsqlc"
	"github.com/lapsehq/lapse/storetype"
)

// Forecast counts what falls due in each bucket of p, by kind, of
// template p.TemplateID if it is set.
func (e *executor) Forecast(ctx context.Context, p storetype.ForecastParams) ([]storetype.DueCount, error) {
	name, args := "Forecast", []any{p.From, p.End(), p.Width.Milliseconds()}
	if p.TemplateID != "" {
		name, args = "TemplateForecast", append(args, p.TemplateID)
	}
	rows, err := e.query(ctx, name, args...)
	return sqlfile.Collect(rows, err, sqlfile.ScanDueCount)
}

// ShardLeases reads every shard's lease.
func (e *executor) ShardLeases(ctx context.Context) ([]storetype.ShardLease, error) {
	rows, err := e.sqlc().ShardLeases(ctx)
	return sqlfile.Convert(rows, err, func(r dbsqlc.ShardLeasesRow) (storetype.ShardLease, error) {
		return storetype.ShardLease{Shard: int(r.Shard), Holder: r.Holder, Token: r.Token, ExpiresAt: r.ExpiresAt}, nil
	})
}

// Instances reads the instances seen within d, by name.
func (e *executor) Instances(ctx context.Context, d time.Duration) ([]storetype.Instance, error) {
	rows, err := e.sqlc().Instances(ctx, d.Milliseconds())
	return sqlfile.Convert(rows, err, func(r dbsqlc.Instance) (storetype.Instance, error) {
		in := storetype.Instance{Name: r.Holder, SeenAt: r.SeenAt}
		if r.SkewMs != nil && r.SkewAt != nil {
			in.Skew, in.SkewAt = time.Duration(*r.SkewMs)*time.Millisecond, *r.SkewAt
		}
		return in, nil
	})
}
