package mysql

import (
	"context"
	"time"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/storetype"
)

// Clock reads the database's clock.
func (e *executor) Clock(ctx context.Context) (time.Time, error) {
	var now time.Time
	err := e.queryRow(ctx, "Clock").Scan(&now)
	return now.UTC(), err
}

// ForgetInstances forgets instances unseen for longer than d.
func (e *executor) ForgetInstances(ctx context.Context, d time.Duration) error {
	_, err := e.exec(ctx, "ForgetInstances", d.Microseconds())
	return err
}

// RenewLeases extends p.Holder's unexpired leases to p.TTL from now.
func (e *executor) RenewLeases(ctx context.Context, p driver.LeaseParams) ([]storetype.Lease, error) {
	held, err := e.leases(ctx, "HeldLeases", p.Holder)
	if err != nil || len(held) == 0 {
		return nil, err
	}
	_, err = e.execList(ctx, "ExtendLeases", len(held), append([]any{p.TTL.Microseconds(), p.Holder}, shardsOf(held)...)...)
	return held, err
}

// DropLeases frees p.Holder's leases of p.Shards.
func (e *executor) DropLeases(ctx context.Context, p driver.LeaseParams) error {
	_, err := e.execList(ctx, "DropLeases", len(p.Shards), withShards(p.Holder, p.Shards)...)
	return err
}

// TakeLeases takes up to p.N free or expired shards for p.Holder, each
// under the token after the one it had.
func (e *executor) TakeLeases(ctx context.Context, p driver.LeaseParams) ([]storetype.Lease, error) {
	free, err := e.leases(ctx, "FreeLeases", p.N)
	if err != nil || len(free) == 0 {
		return nil, err
	}
	if _, err := e.execList(ctx, "TakeLeases", len(free), append([]any{p.Holder, p.TTL.Microseconds()}, shardsOf(free)...)...); err != nil {
		return nil, err
	}
	for i := range free {
		free[i].Token++
	}
	return free, nil
}

// leases runs a lease query returning (shard, token) rows.
func (e *executor) leases(ctx context.Context, name string, args ...any) ([]storetype.Lease, error) {
	rows, err := e.query(ctx, name, args...)
	return sqlfile.Collect(rows, err, sqlfile.ScanLease)
}

// shardsOf lists the shards of ls as statement arguments.
func shardsOf(ls storetype.Leases) []any {
	out := make([]any, len(ls))
	for i, l := range ls {
		out[i] = l.Shard
	}
	return out
}

// LockLeases reads p.Holder's unexpired leases of p.Shards and keeps them
// from changing hands until the transaction ends.
func (e *executor) LockLeases(ctx context.Context, p driver.LeaseParams) ([]storetype.Lease, error) {
	rows, err := e.queryList(ctx, "CheckLeases", len(p.Shards), withShards(p.Holder, p.Shards)...)
	return sqlfile.Collect(rows, err, sqlfile.ScanLease)
}

// SeenInstance records that p.Holder is alive now and, if p.Measured,
// its clock skew p.Skew.
func (e *executor) SeenInstance(ctx context.Context, p driver.SeenInstanceParams) error {
	if p.Measured {
		_, err := e.exec(ctx, "MeasuredSkew", p.Holder, p.Skew.Milliseconds())
		return err
	}
	_, err := e.exec(ctx, "SeenInstance", p.Holder)
	return err
}
