package sqlite

import (
	"database/sql"
	"time"

	"context"

	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/store/sqlfile"
)

// Forecast counts what falls due in each bucket of p, by kind.
func (s *Driver) Forecast(ctx context.Context, p store.ForecastParams) ([]store.DueCount, error) {
	rows, err := s.read(ctx, "Forecast", ms(p.From), ms(p.End()), p.Width.Milliseconds())
	return sqlfile.Collect(rows, err, func(row sqlfile.Scanner) (store.DueCount, error) {
		var c store.DueCount
		err := row.Scan(&c.Kind, &c.Bucket, &c.N)
		return c, err
	})
}

// ShardLeases reads every shard's lease.
func (s *Driver) ShardLeases(ctx context.Context) ([]store.ShardLease, error) {
	rows, err := s.read(ctx, "ShardLeases")
	return sqlfile.Collect(rows, err, func(row sqlfile.Scanner) (store.ShardLease, error) {
		var (
			l       store.ShardLease
			expires int64
		)
		err := row.Scan(&l.Shard, &l.Holder, &l.Token, &expires)
		l.ExpiresAt = at(expires)
		return l, err
	})
}

// Instances reads the instances seen within d, by name.
func (s *Driver) Instances(ctx context.Context, d time.Duration) ([]store.Instance, error) {
	rows, err := s.read(ctx, "Instances", d.Milliseconds())
	return sqlfile.Collect(rows, err, func(row sqlfile.Scanner) (store.Instance, error) {
		var (
			in           store.Instance
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
