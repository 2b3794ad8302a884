package store

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/storetype"
)

// ErrLeaseLost: a drain ran with a lease its holder no longer holds (it
// expired, or another instance took it with a newer token). The drain
// wrote nothing.
var ErrLeaseLost = errors.New("shard lease lost")

// fence fails with ErrLeaseLost unless every lease of ls is held, with its
// token and unexpired, and keeps them from changing hands until t ends:
// the drain it ends must then write nothing.
func (t *txn) fence(ls storetype.Leases) error {
	if len(ls) == 0 {
		return nil
	}
	held, err := t.LockLeases(t.ctx, driver.LeaseParams{Holder: ls[0].Holder, Shards: ls.Shards()})
	if err != nil {
		return err
	}
	return fenced(ls, held)
}

// fenced checks that held, the leases the store has at a drain's commit,
// has every lease of ls with its token: else ErrLeaseLost.
func fenced(ls, held []storetype.Lease) error {
	for _, l := range ls {
		if !slices.ContainsFunc(held, func(h storetype.Lease) bool { return h.Shard == l.Shard && h.Token == l.Token }) {
			return ErrLeaseLost
		}
	}
	return nil
}

// LeaseParams are the inputs of Lease.
type LeaseParams struct {
	Holder string
	TTL    time.Duration
}

// FairShare is how many shards holder should hold among the live
// instances: as many as every other, one more for the first instances in
// name order while the division leaves shards over.
func FairShare(live []string, holder string) int {
	n := max(len(live), 1)
	rank, found := slices.BinarySearch(live, holder)
	if !found {
		rank = len(live)
	}
	share := storetype.Shards / n
	if rank < storetype.Shards%n {
		share++
	}
	return share
}

// leaseIn is DB.Lease run by x, the executor of a write transaction: the
// holder renews what it holds, then gives up what passes its fair share,
// or takes free shards up to it. An instance unseen for ten TTLs is
// forgotten.
func leaseIn(ctx context.Context, x driver.Executor, p LeaseParams) ([]storetype.Lease, error) {
	if err := x.SeenInstance(ctx, driver.SeenInstanceParams{Holder: p.Holder}); err != nil {
		return nil, err
	}
	if err := x.ForgetInstances(ctx, 10*p.TTL); err != nil {
		return nil, err
	}
	instances, err := x.Instances(ctx, p.TTL)
	if err != nil {
		return nil, err
	}
	live := make([]string, len(instances))
	for i, in := range instances {
		live[i] = in.Name
	}
	fair := FairShare(live, p.Holder)
	held, err := x.RenewLeases(ctx, driver.LeaseParams{Holder: p.Holder, TTL: p.TTL})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(held, func(a, b storetype.Lease) int { return a.Shard - b.Shard })
	if len(held) > fair {
		var drop []int
		for _, l := range held[fair:] {
			drop = append(drop, l.Shard)
		}
		if err := x.DropLeases(ctx, driver.LeaseParams{Holder: p.Holder, Shards: drop}); err != nil {
			return nil, err
		}
		held = held[:fair]
	} else if len(held) < fair {
		taken, err := x.TakeLeases(ctx, driver.LeaseParams{Holder: p.Holder, TTL: p.TTL, N: fair - len(held)})
		if err != nil {
			return nil, err
		}
		held = append(held, taken...)
	}
	for i := range held {
		held[i].Holder = p.Holder
	}
	return held, nil
}
