package sqlite

import (
	"context"
	"time"

	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/sqlite/internal/dbsqlc"
	"github.com/lapsehq/lapse/storetype"
)

// Forecast counts what falls due in each bucket of p, by kind, of
// template p.TemplateID if it is set.
func (e *executor) Forecast(ctx context.Context, p storetype.ForecastParams) ([]storetype.DueCount, error) {
	start, end, width := ms(p.From), ms(p.End()), p.Width.Milliseconds()
	var (
		rows []dbsqlc.ForecastRow
		err  error
	)
	if p.TemplateID == "" {
		rows, err = e.q().Forecast(ctx, dbsqlc.ForecastParams{Start: start, End: end, Width: width})
	} else {
		var ofTemplate []dbsqlc.TemplateForecastRow
		ofTemplate, err = e.q().TemplateForecast(ctx, dbsqlc.TemplateForecastParams{Start: start, End: end, Width: width, TemplateID: p.TemplateID})
		for _, r := range ofTemplate {
			rows = append(rows, dbsqlc.ForecastRow(r))
		}
	}
	return sqlfile.Convert(rows, err, func(r dbsqlc.ForecastRow) (storetype.DueCount, error) {
		return storetype.DueCount{Kind: storetype.TimerKind(r.Kind), Bucket: r.Bucket, N: r.N}, nil
	})
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
	rows, err := e.q().Instances(ctx, d.Milliseconds())
	return sqlfile.Convert(rows, err, func(r dbsqlc.Instance) (storetype.Instance, error) {
		in := storetype.Instance{Name: r.Holder, SeenAt: at(r.SeenAt), Skew: time.Duration(r.SkewMs.Int64) * time.Millisecond}
		if r.SkewAt.Valid {
			in.SkewAt = at(r.SkewAt.Int64)
		}
		return in, nil
	})
}
