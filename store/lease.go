package store

import (
	"errors"
	"slices"
	"time"
)

// Shards is how many shards the due work of a distributed store is split
// into. A coupon's or an order's shard is a hash of its ID, stored with
// the row, so one hot second spreads over every shard.
const Shards = 16

// ErrLeaseLost: a drain ran with a lease its holder no longer holds (it
// expired, or another instance took it with a newer token). The drain
// wrote nothing.
var ErrLeaseLost = errors.New("shard lease lost")

// Lease is one instance's claim on one shard of the due work. Token is its
// fencing token: it grows each time the shard changes hands, and a write
// made under an older token is refused.
type Lease struct {
	Shard  int
	Holder string
	Token  int64
}

// Leases are the leases a drain runs under.
type Leases []Lease

// Shards returns the shards a drain under ls covers: theirs, or every
// shard when there are none.
func (ls Leases) Shards() []int {
	out := make([]int, 0, Shards)
	for _, l := range ls {
		out = append(out, l.Shard)
	}
	if len(ls) == 0 {
		for s := range Shards {
			out = append(out, s)
		}
	}
	return out
}

// fence fails with ErrLeaseLost unless every lease of ls is held, with its
// token and unexpired, and keeps them from changing hands until t ends:
// the drain it ends must then write nothing.
func (t *txn) fence(ls Leases) error {
	if len(ls) == 0 {
		return nil
	}
	held, err := t.LockLeases(ls[0].Holder, ls.Shards())
	if err != nil {
		return err
	}
	return fenced(ls, held)
}

// fenced checks that held, the leases the store has at a drain's commit,
// has every lease of ls with its token: else ErrLeaseLost.
func fenced(ls, held []Lease) error {
	for _, l := range ls {
		if !slices.ContainsFunc(held, func(h Lease) bool { return h.Shard == l.Shard && h.Token == l.Token }) {
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

// LeaseTx is one lease transaction of a backend, as LeaseIn sees it.
type LeaseTx interface {
	// SeenInstance records that holder is alive now.
	SeenInstance(holder string) error
	// MeasuredSkew records that holder is alive now and measured its
	// clock skew against the database's now.
	MeasuredSkew(holder string, skew time.Duration) error
	// ForgetInstances forgets instances unseen for longer than d.
	ForgetInstances(d time.Duration) error
	// LiveInstances names the instances seen within ttl, in order.
	LiveInstances(ttl time.Duration) ([]string, error)
	// RenewLeases extends holder's unexpired leases to ttl from now.
	RenewLeases(holder string, ttl time.Duration) ([]Lease, error)
	// DropLeases frees holder's leases of shards.
	DropLeases(holder string, shards []int) error
	// TakeLeases takes up to n free or expired shards for holder, each
	// under a new token, for ttl.
	TakeLeases(holder string, ttl time.Duration, n int) ([]Lease, error)
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
	share := Shards / n
	if rank < Shards%n {
		share++
	}
	return share
}

// LeaseIn is Leases.Lease in t: the holder renews what it holds, then
// gives up what passes its fair share, or takes free shards up to it.
// An instance unseen for ten TTLs is forgotten.
func LeaseIn(t LeaseTx, p LeaseParams) ([]Lease, error) {
	if err := t.SeenInstance(p.Holder); err != nil {
		return nil, err
	}
	if err := t.ForgetInstances(10 * p.TTL); err != nil {
		return nil, err
	}
	live, err := t.LiveInstances(p.TTL)
	if err != nil {
		return nil, err
	}
	fair := FairShare(live, p.Holder)
	held, err := t.RenewLeases(p.Holder, p.TTL)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(held, func(a, b Lease) int { return a.Shard - b.Shard })
	if len(held) > fair {
		var drop []int
		for _, l := range held[fair:] {
			drop = append(drop, l.Shard)
		}
		if err := t.DropLeases(p.Holder, drop); err != nil {
			return nil, err
		}
		held = held[:fair]
	} else if len(held) < fair {
		taken, err := t.TakeLeases(p.Holder, p.TTL, fair-len(held))
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
