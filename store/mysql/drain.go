package mysql

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/store"
)

// ExpireDue expires up to p.Limit due unused coupons in one transaction,
// with a coupon.expired event each. Rows another instance has claimed are
// skipped, not waited for.
func (s *Store) ExpireDue(ctx context.Context, p store.DueParams) (store.Drained, error) {
	return inTx(ctx, s, func(t *tx) (store.Drained, error) {
		var d store.Drained
		shards := store.ShardsOf(p.Leases)
		rows, err := t.queryList("ClaimExpiries", len(shards), withShards(p.Now, shards, p.Limit)...)
		if err != nil {
			return d, err
		}
		var (
			expired []coupon.Coupon
			ids     = []any{p.Now}
		)
		for rows.Next() {
			var c coupon.Coupon
			if err := rows.Scan(&c.ID, &c.TemplateID, &c.UserID, &c.ExpiresAt); err != nil {
				rows.Close()
				return d, err
			}
			expired = append(expired, c)
			ids = append(ids, c.ID)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return d, err
		}
		if len(expired) > 0 {
			res, err := t.execList("ExpireClaimed", len(expired), ids...)
			if err != nil {
				return d, err
			}
			// The rows are locked by this transaction: anything but all of
			// them changed is a bug, not a race.
			n, err := res.RowsAffected()
			if err != nil {
				return d, err
			}
			if n != int64(len(expired)) {
				return d, fmt.Errorf("expire: changed %d of %d claimed coupons", n, len(expired))
			}
		}
		if d.Due, err = store.ExpiredIn(t, expired, p.Now); err != nil {
			return d, err
		}
		d.Next, err = t.next(p.Leases, "NextExpiry")
		return d, err
	})
}

// ReleaseLocks gives back up to p.Limit locked coupons whose lock TTL has
// passed, to unused or, past their expires_at, to expired.
func (s *Store) ReleaseLocks(ctx context.Context, p store.DueParams) (store.Drained, error) {
	return inTx(ctx, s, func(t *tx) (store.Drained, error) {
		var d store.Drained
		shards := store.ShardsOf(p.Leases)
		rows, err := t.queryList("ClaimLocks", len(shards), withShards(p.Now, shards, p.Limit)...)
		if err != nil {
			return d, err
		}
		var locked []coupon.Coupon
		for rows.Next() {
			c, err := scanCoupon(rows)
			if err != nil {
				rows.Close()
				return d, err
			}
			locked = append(locked, c)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return d, err
		}
		if d.Due, err = store.ReleaseIn(t, locked, p.Now); err != nil {
			return d, err
		}
		d.Next, err = t.next(p.Leases, "NextRelease")
		return d, err
	})
}

// next ends a drain: it reads the earliest pending due time of the
// leases' shards with the named query, then fences the drain with ls.
func (t *tx) next(ls []store.Lease, name string) (time.Time, error) {
	var v time.Time
	shards := store.ShardsOf(ls)
	err := t.sql.QueryRowContext(t.ctx, expand(queries.Get(name), len(shards)), withShards(nil, shards)...).Scan(&v)
	if err != nil && err != sql.ErrNoRows {
		return v, err
	}
	return v, t.fence(ls)
}

// withShards returns the arguments of a query with a list of shards:
// first, if set, then the shards, then after.
func withShards(first any, shards []int, after ...any) []any {
	var args []any
	if first != nil {
		args = append(args, first)
	}
	for _, s := range shards {
		args = append(args, s)
	}
	return append(args, after...)
}

// Stats reads the due backlog and the outbox size.
func (s *Store) Stats(ctx context.Context, now time.Time) (store.Stats, error) {
	var st store.Stats
	if err := s.queryRow(ctx, "DueBacklog", now, now, now).Scan(&st.DueBacklog); err != nil {
		return st, err
	}
	if err := s.queryRow(ctx, "OpenOrders").Scan(&st.OpenOrders); err != nil {
		return st, err
	}
	err := s.queryRow(ctx, "OutboxSize").Scan(&st.Outbox)
	return st, err
}
