package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/storetype"
)

// ExpireDue expires up to p.Limit due unused coupons of p's shards and
// returns them; rows another transaction holds are skipped.
func (t *tx) ExpireDue(p storetype.DueParams) ([]coupon.Coupon, error) {
	return claimRanges(p, func(c coupon.Coupon) time.Time { return c.ExpiresAt }, func(limit, lo, hi int) ([]coupon.Coupon, error) {
		rows, err := t.query("ExpireDue", p.Now, limit, lo, hi)
		if err != nil {
			return nil, err
		}
		return pgx.CollectRows(rows, func(row pgx.CollectableRow) (c coupon.Coupon, err error) {
			return c, row.Scan(&c.ID, &c.TemplateID, &c.UserID, &c.ExpiresAt)
		})
	})
}

// LocksDue reads up to p.Limit locked coupons of p's shards due at p.Now,
// holding them; rows another transaction holds are skipped.
func (t *tx) LocksDue(p storetype.DueParams) ([]coupon.Coupon, error) {
	return claimRanges(p, func(c coupon.Coupon) time.Time { return c.LockedUntil }, func(limit, lo, hi int) ([]coupon.Coupon, error) {
		rows, err := t.query("LocksDue", p.Now, limit, lo, hi)
		if err != nil {
			return nil, err
		}
		return pgx.CollectRows(rows, func(row pgx.CollectableRow) (coupon.Coupon, error) { return scanCoupon(row) })
	})
}

// nextQueries names the query of each kind's earliest pending due time.
var nextQueries = map[storetype.TimerKind]string{
	storetype.TimerExpire: "NextExpiry", storetype.TimerRelease: "NextRelease",
	storetype.TimerClose: "NextDeadline", storetype.TimerRemind: "NextReminder",
}

// NextDue reads the earliest pending due time of kind in the shards of ls.
func (t *tx) NextDue(kind storetype.TimerKind, ls storetype.Leases) (time.Time, error) {
	return earliest(ls, func(lo, hi int) pgx.Row { return t.queryRow(nextQueries[kind], lo, hi) })
}

// Stats reads the due backlog and the outbox size, on the engine pool:
// the engine's metrics read them.
func (s *Driver) Stats(ctx context.Context, now time.Time) (storetype.Stats, error) {
	var st storetype.Stats
	if err := s.engineReadRow(ctx, "DueBacklog", now).Scan(&st.DueBacklog); err != nil {
		return st, err
	}
	if err := s.engineReadRow(ctx, "OpenOrders").Scan(&st.OpenOrders); err != nil {
		return st, err
	}
	err := s.engineReadRow(ctx, "OutboxSize").Scan(&st.Outbox)
	return st, err
}
