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
	var now int64
	err := e.queryRow(ctx, "Clock").Scan(&now)
	return at(now), err
}

// ForgetInstances forgets instances unseen for longer than d.
func (e *executor) ForgetInstances(ctx context.Context, d time.Duration) error {
	_, err := e.exec(ctx, "ForgetInstances", d.Milliseconds())
	return err
}

// RenewLeases extends p.Holder's unexpired leases to p.TTL from now.
func (e *executor) RenewLeases(ctx context.Context, p driver.LeaseParams) ([]storetype.Lease, error) {
	return e.leases(ctx, "RenewLeases", p.Holder, p.TTL.Milliseconds())
}

// DropLeases frees p.Holder's leases of p.Shards.
func (e *executor) DropLeases(ctx context.Context, p driver.LeaseParams) error {
	_, err := e.exec(ctx, "DropLeases", p.Holder, jsonShards(p.Shards))
	return err
}

// TakeLeases takes up to p.N free or expired shards for p.Holder, each
// under a new token.
func (e *executor) TakeLeases(ctx context.Context, p driver.LeaseParams) ([]storetype.Lease, error) {
	return e.leases(ctx, "TakeLeases", p.Holder, p.TTL.Milliseconds(), p.N)
}

// leases runs a lease query returning (shard, token) rows.
func (e *executor) leases(ctx context.Context, name string, args ...any) ([]storetype.Lease, error) {
	rows, err := e.query(ctx, name, args...)
	return sqlfile.Collect(rows, err, sqlfile.ScanLease)
}

// LockLeases reads p.Holder's unexpired leases of p.Shards. SQLite has
// one writer: no other instance can take one before the transaction
// ends.
func (e *executor) LockLeases(ctx context.Context, p driver.LeaseParams) ([]storetype.Lease, error) {
	return e.leases(ctx, "CheckLeases", p.Holder, jsonShards(p.Shards))
}

// SeenInstance records that p.Holder is alive now and, if p.Measured,
// its clock skew p.Skew.
func (e *executor) SeenInstance(ctx context.Context, p driver.SeenInstanceParams) error {
	if p.Measured {
		return e.q().MeasuredSkew(ctx, dbsqlc.MeasuredSkewParams{Holder: p.Holder, SkewMs: sql.NullInt64{Int64: p.Skew.Milliseconds(), Valid: true}})
	}
	return e.q().SeenInstance(ctx, p.Holder)
}
