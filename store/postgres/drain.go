package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/store"
)

// ExpireDue expires up to p.Limit due unused coupons in one transaction,
// with a coupon.expired event each.
func (s *Store) ExpireDue(ctx context.Context, p store.DueParams) (store.Drained, error) {
	return inTx(ctx, s, func(t *tx) (store.Drained, error) {
		var d store.Drained
		lo, hi := store.ShardRange(p.Lease)
		rows, err := t.query("ExpireDue", p.Now, p.Limit, lo, hi)
		if err != nil {
			return d, err
		}
		var (
			c       coupon.Coupon
			expired []coupon.Coupon
		)
		_, err = pgx.ForEachRow(rows, []any{&c.ID, &c.TemplateID, &c.UserID, &c.ExpiresAt}, func() error {
			expired = append(expired, c)
			return nil
		})
		if err != nil {
			return d, err
		}
		if d.Due, err = store.ExpiredIn(t, expired, p.Now); err != nil {
			return d, err
		}
		d.Next, err = t.next(p.Lease, "NextExpiry")
		return d, err
	})
}

// ReleaseLocks gives back up to p.Limit locked coupons whose lock TTL has
// passed, to unused or, past their expires_at, to expired.
func (s *Store) ReleaseLocks(ctx context.Context, p store.DueParams) (store.Drained, error) {
	return inTx(ctx, s, func(t *tx) (store.Drained, error) {
		var d store.Drained
		lo, hi := store.ShardRange(p.Lease)
		rows, err := t.query("LocksDue", p.Now, p.Limit, lo, hi)
		if err != nil {
			return d, err
		}
		locked, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (coupon.Coupon, error) { return scanCoupon(row) })
		if err != nil {
			return d, err
		}
		if d.Due, err = store.ReleaseIn(t, locked, p.Now); err != nil {
			return d, err
		}
		d.Next, err = t.next(p.Lease, "NextRelease")
		return d, err
	})
}

// next ends a drain: it reads the earliest pending due time of the
// lease's shards with the named query, then fences the drain with l.
func (t *tx) next(l *store.Lease, name string) (time.Time, error) {
	var v time.Time
	lo, hi := store.ShardRange(l)
	err := t.queryRow(name, lo, hi).Scan(&v)
	if err != nil && err != pgx.ErrNoRows {
		return v, err
	}
	return v, t.fence(l)
}

// Stats reads the due backlog and the outbox size.
func (s *Store) Stats(ctx context.Context, now time.Time) (store.Stats, error) {
	var st store.Stats
	if err := s.readRow(ctx, "DueBacklog", now).Scan(&st.DueBacklog); err != nil {
		return st, err
	}
	if err := s.readRow(ctx, "OpenOrders").Scan(&st.OpenOrders); err != nil {
		return st, err
	}
	err := s.readRow(ctx, "OutboxSize").Scan(&st.Outbox)
	return st, err
}
