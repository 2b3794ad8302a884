package store

import (
	"context"
	"errors"
	"time"
)

// ForecastParams are the inputs of Forecast: Buckets buckets of Width
// each, the first starting at From.
type ForecastParams struct {
	From    time.Time
	Width   time.Duration
	Buckets int
}

// End is when the last bucket of p ends.
func (p ForecastParams) End() time.Time { return p.From.Add(time.Duration(p.Buckets) * p.Width) }

// DueCount is how many items of a kind fall due in one bucket of a
// forecast: N items whose due time lies in [From+Bucket*Width,
// From+(Bucket+1)*Width).
type DueCount struct {
	Kind   TimerKind
	Bucket int64
	N      int64
}

// errForecast: a forecast asked with no bucket or a width under a
// millisecond, the precision every store keeps.
var errForecast = errors.New("store: a forecast needs at least one bucket a millisecond or more wide")

// Forecast counts what falls due from p.From to p.End() in each bucket,
// by kind: unused coupons by expires_at (TimerExpire), locked coupons by
// locked_until (TimerRelease), unpaid orders by deadline (TimerClose).
// It reads the rows the group timers of those kinds fire, through the
// same due indexes, so it counts items where a timer only says a bucket
// holds some. Buckets with nothing due are left out.
func (db *DB) Forecast(ctx context.Context, p ForecastParams) ([]DueCount, error) {
	if p.Buckets < 1 || p.Width < time.Millisecond {
		return nil, errForecast
	}
	return db.d.Forecast(ctx, p)
}

// ShardLease is one shard's lease as stored: its holder ("" while free),
// the fencing token it was last taken under, and when it expires on the
// database's clock.
type ShardLease struct {
	Shard     int
	Holder    string
	Token     int64
	ExpiresAt time.Time
}

// Held reports whether the lease is held at now, on the database's clock.
func (l ShardLease) Held(now time.Time) bool { return l.Holder != "" && now.Before(l.ExpiresAt) }

// ShardLeases reads every shard's lease, by shard.
func (db *DB) ShardLeases(ctx context.Context) ([]ShardLease, error) {
	return db.d.ShardLeases(ctx)
}
