package mysql

import (
	"context"
	"database/sql"
	"time"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/mysql/internal/dbsqlc"
	"github.com/lapsehq/lapse/storetype"
)

// Clock reads the database's clock.
func (e *executor) Clock(ctx context.Context) (time.Time, error) {
	now, err := e.sq().Clock(ctx)
	return now.UTC(), err
}

// ForgetInstances forgets instances unseen for longer than d.
func (e *executor) ForgetInstances(ctx context.Context, d time.Duration) error {
	return e.sq().ForgetInstances(ctx, d.Microseconds())
}

// RenewLeases extends p.Holder's unexpired leases to p.TTL from now.
func (e *executor) RenewLeases(ctx context.Context, p driver.LeaseParams) ([]storetype.Lease, error) {
	rows, err := e.sq().HeldLeases(ctx, p.Holder)
	held, err := sqlfile.Convert(rows, err, lease)
	if err != nil || len(held) == 0 {
		return nil, err
	}
	return held, e.sq().ExtendLeases(ctx, dbsqlc.ExtendLeasesParams{TtlUs: p.TTL.Microseconds(), Holder: p.Holder, Shards: shardsOf(held)})
}

// DropLeases frees p.Holder's leases of p.Shards.
func (e *executor) DropLeases(ctx context.Context, p driver.LeaseParams) error {
	if len(p.Shards) == 0 {
		return nil
	}
	return e.sq().DropLeases(ctx, dbsqlc.DropLeasesParams{Holder: p.Holder, Shards: shardList(p.Shards)})
}

// TakeLeases takes up to p.N free or expired shards for p.Holder, each
// under the token after the one it had.
func (e *executor) TakeLeases(ctx context.Context, p driver.LeaseParams) ([]storetype.Lease, error) {
	rows, err := e.sq().FreeLeases(ctx, int32(p.N))
	free, err := sqlfile.Convert(rows, err, lease)
	if err != nil || len(free) == 0 {
		return nil, err
	}
	err = e.sq().TakeLeases(ctx, dbsqlc.TakeLeasesParams{Holder: p.Holder, TtlUs: p.TTL.Microseconds(), Shards: shardsOf(free)})
	if err != nil {
		return nil, err
	}
	for i := range free {
		free[i].Token++
	}
	return free, nil
}

// lease is a (shard, token) row of the lease queries.
func lease[R dbsqlc.HeldLeasesRow | dbsqlc.FreeLeasesRow | dbsqlc.CheckLeasesRow](row R) (storetype.Lease, error) {
	r := dbsqlc.HeldLeasesRow(row)
	return storetype.Lease{Shard: int(r.Shard), Token: r.Token}, nil
}

// shardsOf lists the shards of ls.
func shardsOf(ls storetype.Leases) []uint8 {
	out := make([]uint8, len(ls))
	for i, l := range ls {
		out[i] = uint8(l.Shard)
	}
	return out
}

// LockLeases reads p.Holder's unexpired leases of p.Shards and keeps them
// from changing hands until the transaction ends.
func (e *executor) LockLeases(ctx context.Context, p driver.LeaseParams) ([]storetype.Lease, error) {
	if len(p.Shards) == 0 {
		return nil, nil
	}
	rows, err := e.sq().CheckLeases(ctx, dbsqlc.CheckLeasesParams{Holder: p.Holder, Shards: shardList(p.Shards)})
	return sqlfile.Convert(rows, err, lease)
}

// SeenInstance records that p.Holder is alive now and, if p.Measured,
// its clock skew p.Skew.
func (e *executor) SeenInstance(ctx context.Context, p driver.SeenInstanceParams) error {
	if p.Measured {
		return e.sq().MeasuredSkew(ctx, dbsqlc.MeasuredSkewParams{
			Holder: p.Holder, SkewMs: sql.NullInt64{Int64: p.Skew.Milliseconds(), Valid: true},
		})
	}
	return e.sq().SeenInstance(ctx, p.Holder)
}
