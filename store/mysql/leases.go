package mysql

import (
	"context"
	"database/sql"
	"time"

	"github.com/lapsehq/lapse/store"
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

// ForgetInstances forgets instances unseen for longer than d.
func (t *tx) ForgetInstances(d time.Duration) error {
	_, err := t.exec("ForgetInstances", d.Microseconds())
	return err
}

// LiveInstances names the instances seen within ttl, in byte order (the
// table's collation is binary).
func (t *tx) LiveInstances(ttl time.Duration) ([]string, error) {
	rows, err := t.query("LiveInstances", ttl.Microseconds())
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
func (t *tx) TakeLeases(holder string, ttl time.Duration, n int) ([]store.Lease, error) {
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
func (t *tx) leases(name string, args ...any) ([]store.Lease, error) {
	rows, err := t.query(name, args...)
	if err != nil {
		return nil, err
	}
	return scanLeases(rows)
}

// scanLeases reads and closes (shard, token) rows.
func scanLeases(rows *sql.Rows) ([]store.Lease, error) {
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

// shardsOf lists the shards of ls as statement arguments.
func shardsOf(ls []store.Lease) []any {
	out := make([]any, len(ls))
	for i, l := range ls {
		out[i] = l.Shard
	}
	return out
}

// Fence refuses the drain's commit unless every lease of ls is still held
// with its token and unexpired, and then keeps them from changing hands
// until the commit.
func (t *tx) Fence(ls []store.Lease) error {
	if len(ls) == 0 {
		return nil
	}
	shards := store.ShardsOf(ls)
	rows, err := t.queryList("CheckLeases", len(shards), withShards(ls[0].Holder, shards)...)
	if err != nil {
		return err
	}
	held, err := scanLeases(rows)
	if err != nil {
		return err
	}
	return store.Fenced(ls, held)
}
