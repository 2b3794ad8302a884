package store

import (
	"context"
	"errors"
	"time"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/storetype"
)

// errForecast: a forecast asked with no bucket or a width under a
// millisecond, the precision every store keeps.
var errForecast = errors.New("store: a forecast needs at least one bucket a millisecond or more wide")

// Forecast counts what falls due from p.From to p.End() in each bucket,
// by kind: unused coupons by expires_at (TimerExpire), locked coupons by
// locked_until (TimerRelease), unpaid orders by deadline (TimerClose).
// It reads the rows the group timers of those kinds fire, through the
// same due indexes, so it counts items where a timer only says a bucket
// holds some. Buckets with nothing due are left out.
func (db *DB) Forecast(ctx context.Context, p storetype.ForecastParams) ([]storetype.DueCount, error) {
	if p.Buckets < 1 || p.Width < time.Millisecond {
		return nil, errForecast
	}
	return read(ctx, db, func(x driver.Executor) ([]storetype.DueCount, error) { return x.Forecast(ctx, p) })
}

// ShardLeases reads every shard's lease, by shard.
func (db *DB) ShardLeases(ctx context.Context) ([]storetype.ShardLease, error) {
	return read(ctx, db, func(x driver.Executor) ([]storetype.ShardLease, error) { return x.ShardLeases(ctx) })
}
