package postgres

import (
	"context"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/postgres/internal/dbsqlc"
	"github.com/lapsehq/lapse/storetype"
)

// ExpireDue expires up to p.Limit due unused coupons of p's shards and
// returns them; rows another transaction holds are skipped.
func (e *executor) ExpireDue(ctx context.Context, p storetype.DueParams) ([]coupon.Coupon, error) {
	return claimRanges(p, func(c coupon.Coupon) time.Time { return c.ExpiresAt }, func(limit, lo, hi int) ([]coupon.Coupon, error) {
		rows, err := e.sqlc().ExpireDue(ctx, dbsqlc.ExpireDueParams{UpdatedAt: p.Now, Limit: int32(limit), Shard: int16(lo), Shard_2: int16(hi)})
		return sqlfile.Convert(rows, err, func(r dbsqlc.ExpireDueRow) (coupon.Coupon, error) {
			return coupon.Coupon{ID: r.ID, TemplateID: r.TemplateID, UserID: r.UserID, ExpiresAt: r.ExpiresAt}, nil
		})
	})
}

// LocksDue reads up to p.Limit locked coupons of p's shards due at p.Now,
// holding them; rows another transaction holds are skipped.
func (e *executor) LocksDue(ctx context.Context, p storetype.DueParams) ([]coupon.Coupon, error) {
	return claimRanges(p, func(c coupon.Coupon) time.Time { return c.LockedUntil }, func(limit, lo, hi int) ([]coupon.Coupon, error) {
		rows, err := e.sqlc().LocksDue(ctx, dbsqlc.LocksDueParams{LockedUntil: &p.Now, Limit: int32(limit), Shard: int16(lo), Shard_2: int16(hi)})
		return sqlfile.Convert(rows, err, storedCoupon)
	})
}

// nextQueries reads each kind's earliest pending due time in a range of
// shards.
var nextQueries = map[storetype.TimerKind]func(q *dbsqlc.Queries, ctx context.Context, lo, hi int16) (time.Time, error){
	storetype.TimerExpire: func(q *dbsqlc.Queries, ctx context.Context, lo, hi int16) (time.Time, error) {
		return q.NextExpiry(ctx, dbsqlc.NextExpiryParams{Shard: lo, Shard_2: hi})
	},
	storetype.TimerRelease: func(q *dbsqlc.Queries, ctx context.Context, lo, hi int16) (time.Time, error) {
		due, err := q.NextRelease(ctx, dbsqlc.NextReleaseParams{Shard: lo, Shard_2: hi})
		if due == nil {
			return time.Time{}, err
		}
		return *due, err
	},
	storetype.TimerClose: func(q *dbsqlc.Queries, ctx context.Context, lo, hi int16) (time.Time, error) {
		return q.NextDeadline(ctx, dbsqlc.NextDeadlineParams{Shard: lo, Shard_2: hi})
	},
	storetype.TimerRemind: func(q *dbsqlc.Queries, ctx context.Context, lo, hi int16) (time.Time, error) {
		return q.NextReminder(ctx, dbsqlc.NextReminderParams{Shard: lo, Shard_2: hi})
	},
}

// NextDue reads the earliest pending due time of kind p.Kind in the
// shards of p.Leases.
func (e *executor) NextDue(ctx context.Context, p driver.NextDueParams) (time.Time, error) {
	next := nextQueries[p.Kind]
	return earliest(p.Leases, func(lo, hi int16) (time.Time, error) { return next(e.sqlc(), ctx, lo, hi) })
}

// Stats reads the due backlog and the outbox size, outside a transaction
// on the engine pool: the engine's metrics read them.
func (e *executor) Stats(ctx context.Context, now time.Time) (storetype.Stats, error) {
	var (
		st  storetype.Stats
		err error
		q   = dbsqlc.New(e.engine)
	)
	if st.DueBacklog, err = q.DueBacklog(ctx, now); err != nil {
		return st, err
	}
	if st.OpenOrders, err = q.OpenOrders(ctx); err != nil {
		return st, err
	}
	st.Outbox, err = q.OutboxSize(ctx)
	return st, err
}
