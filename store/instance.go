package store

import (
	"context"
	"time"
)

// Instance is one lapse instance as the store last saw it: when, on the
// database's clock, and the skew of its clock against the database's as
// it last measured it (the local clock ahead positive), at SkewAt; a zero
// SkewAt: it has not measured.
type Instance struct {
	Name   string
	SeenAt time.Time
	Skew   time.Duration
	SkewAt time.Time
}

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
	_, err := background(ctx, db, func(t *txn) (struct{}, error) { return struct{}{}, t.MeasuredSkew(p.Instance, p.Skew) })
	return err
}

// Instances reads the instances seen within d of the database's now, by
// name.
func (db *DB) Instances(ctx context.Context, d time.Duration) ([]Instance, error) {
	return db.d.Instances(ctx, d)
}
