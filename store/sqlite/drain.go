package sqlite

import (
	"context"
	"database/sql"
	"strconv"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/store"
)

// ExpireDue expires up to p.Limit due unused coupons in one transaction,
// with a coupon.expired event each. The events are written by one
// statement from the rowids the update returned: no row goes through Go.
func (s *Store) ExpireDue(ctx context.Context, p store.DueParams) (store.Drained, error) {
	return backgroundTx(ctx, s, func(t *tx) (store.Drained, error) {
		var d store.Drained
		rows, err := t.query("ExpireDue", ms(p.Now), p.Limit)
		if err != nil {
			return d, err
		}
		rowids := make([]byte, 0, 16*p.Limit)
		rowids = append(rowids, '[')
		perTemplate := map[string]int64{}
		for rows.Next() {
			var (
				rowid, expiresAt int64
				templateID       string
			)
			if err := rows.Scan(&rowid, &templateID, &expiresAt); err != nil {
				rows.Close()
				return d, err
			}
			if len(d.Due) > 0 {
				rowids = append(rowids, ',')
			}
			rowids = strconv.AppendInt(rowids, rowid, 10)
			perTemplate[templateID]++
			d.Due = append(d.Due, at(expiresAt))
		}
		rows.Close()
		if err := rows.Err(); err != nil || len(d.Due) == 0 {
			if err == nil {
				d.Next, err = t.next("NextExpiry")
			}
			return d, err
		}
		rowids = append(rowids, ']')
		if _, err := t.exec("InsertExpiredEvents", store.IDTime(p.Now), ms(p.Now), string(rowids)); err != nil {
			return d, err
		}
		for range d.Due {
			t.events = append(t.events, store.EventCouponExpired)
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
	return backgroundTx(ctx, s, func(t *tx) (store.Drained, error) {
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
	err := s.readRow(ctx, "OutboxSize").Scan(&st.Outbox)
	return st, err
}
