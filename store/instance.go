package store

import (
	"context"
	"time"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/storetype"
)

// MeasuredSkewParams are the inputs of MeasuredSkew.
type MeasuredSkewParams struct {
	Instance string
	Skew     time.Duration
}

// MeasuredSkew records that p.Instance is alive and has just measured its
// clock skew p.Skew against the database's clock, so that every instance
// sharing the store can show every instance's skew. It counts as seeing
// the instance for the fair share of shard leases, as Lease does.
func (db *DB) MeasuredSkew(ctx context.Context, p MeasuredSkewParams) error {
	_, err := background(ctx, db, func(t *txn) (struct{}, error) {
		return struct{}{}, t.SeenInstance(t.ctx, driver.SeenInstanceParams{Holder: p.Instance, Skew: p.Skew, Measured: true})
	})
	return err
}

// Instances reads the instances seen within d of the database's now, by
// name.
func (db *DB) Instances(ctx context.Context, d time.Duration) ([]storetype.Instance, error) {
	return read(ctx, db, func(x driver.Executor) ([]storetype.Instance, error) { return x.Instances(ctx, d) })
}
