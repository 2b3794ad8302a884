package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/lapsehq/lapse/storetype"
)

// Forecast counts what falls due in each bucket of p, by kind.
func (e *executor) Forecast(ctx context.Context, p storetype.ForecastParams) ([]storetype.DueCount, error) {
	rows, err := e.query(ctx, "Forecast", p.From, p.End(), p.Width.Milliseconds())
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (c storetype.DueCount, err error) {
		err = row.Scan(&c.Kind, &c.Bucket, &c.N)
		return c, err
	})
}

// ShardLeases reads every shard's lease.
func (e *executor) ShardLeases(ctx context.Context) ([]storetype.ShardLease, error) {
	rows, err := e.query(ctx, "ShardLeases")
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (l storetype.ShardLease, err error) {
		err = row.Scan(&l.Shard, &l.Holder, &l.Token, &l.ExpiresAt)
		return l, err
	})
}

// Instances reads the instances seen within d, by name.
func (e *executor) Instances(ctx context.Context, d time.Duration) ([]storetype.Instance, error) {
	rows, err := e.query(ctx, "Instances", d.Milliseconds())
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (in storetype.Instance, err error) {
		var (
			skew   *int64
			skewAt *time.Time
		)
		err = row.Scan(&in.Name, &in.SeenAt, &skew, &skewAt)
		if skew != nil && skewAt != nil {
			in.Skew, in.SkewAt = time.Duration(*skew)*time.Millisecond, *skewAt
		}
		return in, err
	})
}
