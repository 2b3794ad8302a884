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
		expired, err := claimRanges(p, func(limit, lo, hi int) ([]coupon.Coupon, error) {
			rows, err := t.query("ExpireDue", p.Now, limit, lo, hi)
			if err != nil {
				return nil, err
			}
			return pgx.CollectRows(rows, func(row pgx.CollectableRow) (c coupon.Coupon, err error) {
				return c, row.Scan(&c.ID, &c.TemplateID, &c.UserID, &c.ExpiresAt)
			})
		})
		if err != nil {
			return d, err
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
		locked, err := claimRanges(p, func(limit, lo, hi int) ([]coupon.Coupon, error) {
			rows, err := t.query("LocksDue", p.Now, limit, lo, hi)
			if err != nil {
				return nil, err
			}
			return pgx.CollectRows(rows, func(row pgx.CollectableRow) (coupon.Coupon, error) { return scanCoupon(row) })
		})
		if err != nil {
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
	first, err := earliest(ls, func(lo, hi int) pgx.Row { return t.queryRow(name, lo, hi) })
	if err != nil {
		return first, err
	}
	return first, t.fence(ls)
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
