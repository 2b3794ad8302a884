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
	releaseFrom, releaseEnd := sql.NullTime{Time: from, Valid: true}, sql.NullTime{Time: end, Valid: true}
	var (
		rows []dbsqlc.ForecastRow
		err  error
	)
	if p.TemplateID == "" {
		rows, err = e.sq().Forecast(ctx, dbsqlc.ForecastParams{
			FromTime: from, WidthMs: width, EndTime: end, ReleaseFrom: releaseFrom, ReleaseEnd: releaseEnd,
		})
	} else {
		var ofTemplate []dbsqlc.TemplateForecastRow
		ofTemplate, err = e.sq().TemplateForecast(ctx, dbsqlc.TemplateForecastParams{
			FromTime: from, WidthMs: width, EndTime: end, ReleaseFrom: releaseFrom, ReleaseEnd: releaseEnd, TemplateID: p.TemplateID,
		})
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
	rows, err := e.sq().ShardLeases(ctx)
	return sqlfile.Convert(rows, err, func(r dbsqlc.ShardLeasesRow) (storetype.ShardLease, error) {
		return storetype.ShardLease{Shard: int(r.Shard), Holder: r.Holder, Token: r.Token, ExpiresAt: r.ExpiresAt}, nil
	})
}

// Instances reads the instances seen within d, by name.
func (e *executor) Instances(ctx context.Context, d time.Duration) ([]storetype.Instance, error) {
	rows, err := e.sq().Instances(ctx, d.Microseconds())
	return sqlfile.Convert(rows, err, func(r dbsqlc.InstancesRow) (storetype.Instance, error) {
		in := storetype.Instance{Name: r.Holder, SeenAt: r.SeenAt.UTC()}
		if r.SkewMs.Valid && r.SkewAt.Valid {
			in.Skew, in.SkewAt = time.Duration(r.SkewMs.Int64)*time.Millisecond, r.SkewAt.Time.UTC()
		}
		return in, nil
	})
}
