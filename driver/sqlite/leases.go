package sqlite

import (
	"context"
	"database/sql"
	"time"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/sqlite/internal/dbsqlc"
	"github.com/lapsehq/lapse/storetype"
)

// Clock reads the database's clock: SQLite's, to the millisecond.
func (e *executor) Clock(ctx context.Context) (time.Time, error) {
	now, err := e.q().Clock(ctx)
	return at(now), err
}

// ForgetInstances forgets instances unseen for longer than d.
func (e *executor) ForgetInstances(ctx context.Context, d time.Duration) error {
	return e.q().ForgetInstances(ctx, d.Milliseconds())
}

// RenewLeases extends p.Holder's unexpired leases to p.TTL from now.
func (e *executor) RenewLeases(ctx context.Context, p driver.LeaseParams) ([]storetype.Lease, error) {
	rows, err := e.q().RenewLeases(ctx, dbsqlc.RenewLeasesParams{TtlMs: p.TTL.Milliseconds(), Holder: p.Holder})
	return sqlfile.Convert(rows, err, lease)
}

// DropLeases frees p.Holder's leases of p.Shards.
func (e *executor) DropLeases(ctx context.Context, p driver.LeaseParams) error {
	return e.q().DropLeases(ctx, dbsqlc.DropLeasesParams{Holder: p.Holder, Shards: jsonShards(p.Shards)})
}

// TakeLeases takes up to p.N free or expired shards for p.Holder, each
// under a new token.
func (e *executor) TakeLeases(ctx context.Context, p driver.LeaseParams) ([]storetype.Lease, error) {
	rows, err := e.q().TakeLeases(ctx, dbsqlc.TakeLeasesParams{Holder: p.Holder, TtlMs: p.TTL.Milliseconds(), N: int64(p.N)})
	return sqlfile.Convert(rows, err, lease)
}

// lease is a (shard, token) row of the lease queries.
func lease[R dbsqlc.RenewLeasesRow | dbsqlc.TakeLeasesRow | dbsqlc.CheckLeasesRow](row R) (storetype.Lease, error) {
	r := dbsqlc.RenewLeasesRow(row)
	return storetype.Lease{Shard: int(r.Shard), Token: r.Token}, nil
}

// LockLeases reads p.Holder's unexpired leases of p.Shards. SQLite has
// one writer: no other instance can take one before the transaction
// ends.
func (e *executor) LockLeases(ctx context.Context, p driver.LeaseParams) ([]storetype.Lease, error) {
	rows, err := e.q().CheckLeases(ctx, dbsqlc.CheckLeasesParams{Holder: p.Holder, Shards: jsonShards(p.Shards)})
	return sqlfile.Convert(rows, err, lease)
}

// SeenInstance records that p.Holder is alive now and, if p.Measured,
// its clock skew p.Skew.
func (e *executor) SeenInstance(ctx context.Context, p driver.SeenInstanceParams) error {
	if p.Measured {
		return e.q().MeasuredSkew(ctx, dbsqlc.MeasuredSkewParams{Holder: p.Holder, SkewMs: sql.NullInt64{Int64: p.Skew.Milliseconds(), Valid: true}})
	}
	return e.q().SeenInstance(ctx, p.Holder)
}
