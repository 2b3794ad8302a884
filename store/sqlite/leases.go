package sqlite

import (
	"context"
	"time"

	"github.com/lapsehq/lapse/store"
)

var (
	_ store.Leases  = (*Store)(nil)
	_ store.LeaseTx = (*tx)(nil)
)

// Lease renews, gives up and takes shard leases for p.Holder in one write
// transaction; see store.LeaseIn.
func (s *Store) Lease(ctx context.Context, p store.LeaseParams) ([]store.Lease, error) {
	return inTx(ctx, s, func(t *tx) ([]store.Lease, error) { return store.LeaseIn(t, p) })
}

// Clock reads the database's clock: SQLite's, to the millisecond.
func (s *Store) Clock(ctx context.Context) (time.Time, error) {
	var now int64
	err := s.readRow(ctx, "Clock").Scan(&now)
	return at(now), err
}

// SeenInstance records that holder is alive now.
func (t *tx) SeenInstance(holder string) error {
	_, err := t.exec("SeenInstance", holder)
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
	defer rows.Close()
	var out []string
	for rows.Next() {
		var h string
		if err := rows.Scan(&h); err != nil {
			return nil, err
		}
		out = append(out, h)
	}
	return out, rows.Err()
}

// RenewLeases extends holder's unexpired leases to ttl from now.
func (t *tx) RenewLeases(holder string, ttl time.Duration) ([]store.Lease, error) {
	return t.leases("RenewLeases", holder, ttl.Milliseconds())
}

// DropLeases frees holder's leases of shards.
func (t *tx) DropLeases(holder string, shards []int) error {
	_, err := t.exec("DropLeases", holder, jsonShards(shards))
	return err
}

// TakeLeases takes up to n free or expired shards for holder, each under
// a new token.
func (t *tx) TakeLeases(holder string, ttl time.Duration, n int) ([]store.Lease, error) {
	return t.leases("TakeLeases", holder, ttl.Milliseconds(), n)
}

// leases runs a lease query returning (shard, token) rows.
func (t *tx) leases(name string, args ...any) ([]store.Lease, error) {
	rows, err := t.query(name, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.Lease
	for rows.Next() {
		var l store.Lease
		if err := rows.Scan(&l.Shard, &l.Token); err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, rows.Err()
}

// fence refuses the drain's commit unless every lease of ls is still held
// with its token and unexpired. SQLite has one writer: no other instance
// can take a lease between this check and the drain's commit.
func (t *tx) fence(ls []store.Lease) error {
	if len(ls) == 0 {
		return nil
	}
	held, err := t.leases("CheckLeases", ls[0].Holder, jsonShards(store.ShardsOf(ls)))
	if err != nil {
		return err
	}
	return store.Fenced(ls, held)
}

// nextIn ends a fenced drain: it reads the earliest pending due time of
// the shards of ls with the named query, then fences the drain with ls.
func (t *tx) nextIn(ls []store.Lease, name string) (time.Time, error) {
	first, err := t.next(name, shardFilter(ls))
	if err != nil {
		return first, err
	}
	return first, t.fence(ls)
}
