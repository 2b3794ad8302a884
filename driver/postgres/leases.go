package postgres

import (
	"context"
	"time"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/postgres/internal/dbsqlc"
	"github.com/lapsehq/lapse/storetype"
)

// Clock reads the database's clock.
func (e *executor) Clock(ctx context.Context) (time.Time, error) {
	return e.sqlc().Clock(ctx)
}

// ForgetInstances forgets instances unseen for longer than d.
func (e *executor) ForgetInstances(ctx context.Context, d time.Duration) error {
	return e.sqlc().ForgetInstances(ctx, d.Milliseconds())
}

// RenewLeases extends p.Holder's unexpired leases to p.TTL from now.
func (e *executor) RenewLeases(ctx context.Context, p driver.LeaseParams) ([]storetype.Lease, error) {
	rows, err := e.sqlc().RenewLeases(ctx, dbsqlc.RenewLeasesParams{Holder: p.Holder, TtlMs: p.TTL.Milliseconds()})
	return sqlfile.Convert(rows, err, leaseOf)
}

// DropLeases frees p.Holder's leases of p.Shards.
func (e *executor) DropLeases(ctx context.Context, p driver.LeaseParams) error {
	return e.sqlc().DropLeases(ctx, dbsqlc.DropLeasesParams{Holder: p.Holder, Shards: smallints(p.Shards)})
}

// TakeLeases takes up to p.N free or expired shards for p.Holder.
func (e *executor) TakeLeases(ctx context.Context, p driver.LeaseParams) ([]storetype.Lease, error) {
	rows, err := e.sqlc().TakeLeases(ctx, dbsqlc.TakeLeasesParams{Holder: p.Holder, TtlMs: p.TTL.Milliseconds(), N: int32(p.N)})
	return sqlfile.Convert(rows, err, leaseOf)
}

// leaseOf is a (shard, token) row of a lease query.
func leaseOf[R dbsqlc.CheckLeasesRow | dbsqlc.RenewLeasesRow | dbsqlc.TakeLeasesRow](row R) (storetype.Lease, error) {
	r := dbsqlc.CheckLeasesRow(row)
	return storetype.Lease{Shard: int(r.Shard), Token: r.Token}, nil
}

// LockLeases reads p.Holder's unexpired leases of p.Shards and keeps them
// from changing hands until the transaction ends.
func (e *executor) LockLeases(ctx context.Context, p driver.LeaseParams) ([]storetype.Lease, error) {
	rows, err := e.sqlc().CheckLeases(ctx, dbsqlc.CheckLeasesParams{Holder: p.Holder, Shards: smallints(p.Shards)})
	return sqlfile.Convert(rows, err, leaseOf)
}

// smallints is shards as the smallint[] of a query's parameter.
func smallints(shards []int) []int16 {
	out := make([]int16, len(shards))
	for i, s := range shards {
		out[i] = int16(s)
	}
	return out
}

// SeenInstance records that p.Holder is alive now and, if p.Measured,
// its clock skew p.Skew.
func (e *executor) SeenInstance(ctx context.Context, p driver.SeenInstanceParams) error {
	if p.Measured {
		return e.sqlc().MeasuredSkew(ctx, dbsqlc.MeasuredSkewParams{Holder: p.Holder, SkewMs: new(p.Skew.Milliseconds())})
	}
	return e.sqlc().SeenInstance(ctx, p.Holder)
}
