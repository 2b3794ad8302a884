package mysql

import (
	"context"
	"time"

	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/storetype"
)

// Clock reads the database's clock.
func (s *Driver) Clock(ctx context.Context) (time.Time, error) {
	var now time.Time
	err := s.queryRow(ctx, "Clock").Scan(&now)
	return now.UTC(), err
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
	_, err := t.exec("ForgetInstances", d.Microseconds())
	return err
}

// LiveInstances names the instances seen within ttl, in byte order (the
// table's collation is binary).
func (t *tx) LiveInstances(ttl time.Duration) ([]string, error) {
	rows, err := t.query("LiveInstances", ttl.Microseconds())
	return sqlfile.Collect(rows, err, sqlfile.ScanString)
}

// RenewLeases extends holder's unexpired leases to ttl from now.
func (t *tx) RenewLeases(holder string, ttl time.Duration) ([]storetype.Lease, error) {
	held, err := t.leases("HeldLeases", holder)
	if err != nil || len(held) == 0 {
		return nil, err
	}
	_, err = t.execList("ExtendLeases", len(held), append([]any{ttl.Microseconds(), holder}, shardsOf(held)...)...)
	return held, err
}

// DropLeases frees holder's leases of shards.
func (t *tx) DropLeases(holder string, shards []int) error {
	args := []any{holder}
	for _, s := range shards {
		args = append(args, s)
	}
	_, err := t.execList("DropLeases", len(shards), args...)
	return err
}

// TakeLeases takes up to n free or expired shards for holder, each under
// the token after the one it had.
func (t *tx) TakeLeases(holder string, ttl time.Duration, n int) ([]storetype.Lease, error) {
	free, err := t.leases("FreeLeases", n)
	if err != nil || len(free) == 0 {
		return nil, err
	}
	if _, err := t.execList("TakeLeases", len(free), append([]any{holder, ttl.Microseconds()}, shardsOf(free)...)...); err != nil {
		return nil, err
	}
	for i := range free {
		free[i].Token++
	}
	return free, nil
}

// leases runs a lease query returning (shard, token) rows.
func (t *tx) leases(name string, args ...any) ([]storetype.Lease, error) {
	rows, err := t.query(name, args...)
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

// LockLeases reads holder's unexpired leases of shards and keeps them
// from changing hands until the transaction ends.
func (t *tx) LockLeases(holder string, shards []int) ([]storetype.Lease, error) {
	rows, err := t.queryList("CheckLeases", len(shards), withShards(holder, shards)...)
	return sqlfile.Collect(rows, err, sqlfile.ScanLease)
}
