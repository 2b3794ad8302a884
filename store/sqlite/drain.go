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
		perTemplate := map[string]int64{}
		for _, c := range expired {
			if err := t.event(store.CouponEvent(c, store.EventCouponExpired, coupon.Unused, store.ReasonExpiry, "", p.Now)); err != nil {
				return d, err
			}
			perTemplate[c.TemplateID]++
			d.Due = append(d.Due, c.ExpiresAt)
		}
		if err := t.moveCounts(perTemplate, coupon.Unused, coupon.Expired); err != nil {
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
		for _, c := range locked {
			tp := store.TransitionParams{CouponID: c.ID, Action: coupon.Release, Reason: store.ReasonLockTTL, Now: p.Now}
			if _, err := t.transition(c, tp); err != nil {
				return d, err
			}
			d.Due = append(d.Due, c.LockedUntil)
		}
		d.Next, err = t.next("NextRelease")
		return d, err
	})
}

// moveCounts moves n coupons per template from one state's count to another's.
func (t *tx) moveCounts(perTemplate map[string]int64, from, to coupon.State) error {
	for id, n := range perTemplate {
		if err := t.count(id, from.String(), -n); err != nil {
			return err
		}
		if err := t.count(id, to.String(), n); err != nil {
			return err
		}
	}
	return nil
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
