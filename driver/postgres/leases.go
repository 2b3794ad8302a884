package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/storetype"
)

// Clock reads the database's clock.
func (s *Driver) Clock(ctx context.Context) (time.Time, error) {
	var now time.Time
	err := s.readRow(ctx, "Clock").Scan(&now)
	return now, err
}

// SeenInstance records that holder is alive now.
func (t *tx) SeenInstance(holder string) error {
	_, err := t.exec("SeenInstance", holder)
	return err
}

// MeasuredSkew records that holder is alive now, with its clock skew.
func (t *tx) MeasuredSkew(holder string, skew time.Duration) error {
	_, err := t.exec("MeasuredSkew", holder, skew.Milliseconds())
	return err
}

// ForgetInstances forgets instances unseen for longer than d.
func (t *tx) ForgetInstances(d time.Duration) error {
	_, err := t.exec("ForgetInstances", d.Milliseconds())
	return err
}

// LiveInstances names the instances seen within ttl, in byte order.
func (t *tx) LiveInstances(ttl time.Duration) ([]string, error) {
	rows, err := t.query("LiveInstances", ttl.Milliseconds())
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

// RenewLeases extends holder's unexpired leases to ttl from now.
func (t *tx) RenewLeases(holder string, ttl time.Duration) ([]storetype.Lease, error) {
	return t.leases("RenewLeases", holder, ttl.Milliseconds())
}

// DropLeases frees holder's leases of shards.
func (t *tx) DropLeases(holder string, shards []int) error {
	_, err := t.exec("DropLeases", holder, shards)
	return err
}

// TakeLeases takes up to n free or expired shards for holder.
func (t *tx) TakeLeases(holder string, ttl time.Duration, n int) ([]storetype.Lease, error) {
	return t.leases("TakeLeases", holder, ttl.Milliseconds(), n)
}

// leases runs a lease query returning (shard, token) rows.
func (t *tx) leases(name string, args ...any) ([]storetype.Lease, error) {
	rows, err := t.query(name, args...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (storetype.Lease, error) { return sqlfile.ScanLease(row) })
}

// LockLeases reads holder's unexpired leases of shards and keeps them
// from changing hands until the transaction ends.
func (t *tx) LockLeases(holder string, shards []int) ([]storetype.Lease, error) {
	return t.leases("CheckLeases", holder, shards)
}
