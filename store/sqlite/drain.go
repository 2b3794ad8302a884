package sqlite

import (
	"context"
	"database/sql"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/store"
)

// ExpireDue expires up to p.Limit due unused coupons in one transaction,
// with a coupon.expired event each.
func (s *Store) ExpireDue(ctx context.Context, p store.DueParams) (store.Drained, error) {
	return inTx(ctx, s, func(t *tx) (store.Drained, error) {
		var d store.Drained
		rows, err := t.query("ExpireDue", ms(p.Now), p.Limit)
		if err != nil {
			return d, err
		}
		var expired []coupon.Coupon
		for rows.Next() {
			var (
				c         coupon.Coupon
				expiresAt int64
			)
			if err := rows.Scan(&c.ID, &c.TemplateID, &c.UserID, &expiresAt); err != nil {
				rows.Close()
				return d, err
			}
			c.ExpiresAt = at(expiresAt)
			expired = append(expired, c)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return d, err
		}
		if d.Due, err = store.ExpiredIn(t, expired, p.Now); err != nil {
			return d, err
		}
		d.Next, err = t.next("NextExpiry")
		return d, err
	})
}

// ReleaseLocks gives back up to p.Limit locked coupons whose lock TTL has
// passed, to unused or, past their expires_at, to expired.
func (s *Store) ReleaseLocks(ctx context.Context, p store.DueParams) (store.Drained, error) {
	return inTx(ctx, s, func(t *tx) (store.Drained, error) {
		var d store.Drained
		rows, err := t.query("LocksDue", ms(p.Now), p.Limit)
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
		d.Next, err = t.next("NextRelease")
		return d, err
	})
}

// next reads the earliest pending due time with the named query.
func (t *tx) next(name string) (time.Time, error) {
	var v int64
	err := t.queryRow(name).Scan(&v)
	if err == sql.ErrNoRows {
		return time.Time{}, nil
	}
	return at(v), err
}

// Stats reads the due backlog and the outbox size.
func (s *Store) Stats(ctx context.Context, now time.Time) (store.Stats, error) {
	var st store.Stats
	if err := s.readRow(ctx, "DueBacklog", ms(now)).Scan(&st.DueBacklog); err != nil {
		return st, err
	}
	if err := s.readRow(ctx, "OpenOrders").Scan(&st.OpenOrders); err != nil {
		return st, err
	}
	err := s.readRow(ctx, "OutboxSize").Scan(&st.Outbox)
	return st, err
}
