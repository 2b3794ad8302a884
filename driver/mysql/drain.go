package mysql

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/mysql/internal/dbsqlc"
	"github.com/lapsehq/lapse/storetype"
)

// ExpireDue expires up to p.Limit due unused coupons of p's shards and
// returns them. Rows another instance has claimed are skipped, not waited
// for.
func (e *executor) ExpireDue(ctx context.Context, p storetype.DueParams) ([]coupon.Coupon, error) {
	expired, err := readDue(ctx, e.q, p, "DueExpiryShards", func(ctx context.Context, q *dbsqlc.Queries, c claim) ([]coupon.Coupon, error) {
		now, shard, limit := c.args()
		rows, err := q.ClaimExpiries(ctx, dbsqlc.ClaimExpiriesParams{Now: now, Shard: shard, Limit: limit})
		return sqlfile.Convert(rows, err, func(r dbsqlc.ClaimExpiriesRow) (coupon.Coupon, error) {
			return coupon.Coupon{ID: r.ID, TemplateID: r.TemplateID, UserID: r.UserID, ExpiresAt: r.ExpiresAt}, nil
		})
	}, func(c coupon.Coupon) time.Time { return c.ExpiresAt })
	if err != nil {
		return nil, err
	}
	if len(expired) > 0 {
		ids := make([]string, len(expired))
		for i, c := range expired {
			ids[i] = c.ID
		}
		// The rows are locked by this transaction: anything but all of
		// them changed is a bug, not a race.
		n, err := e.sq().ExpireClaimed(ctx, dbsqlc.ExpireClaimedParams{UpdatedAt: p.Now, Ids: ids})
		if err != nil {
			return nil, err
		}
		if n != int64(len(expired)) {
			return nil, fmt.Errorf("expire: changed %d of %d claimed coupons", n, len(expired))
		}
	}
	return expired, nil
}

// LocksDue reads up to p.Limit locked coupons of p's shards due at p.Now,
// holding them; rows another instance holds are skipped.
func (e *executor) LocksDue(ctx context.Context, p storetype.DueParams) ([]coupon.Coupon, error) {
	return readDue(ctx, e.q, p, "DueLockShards", func(ctx context.Context, q *dbsqlc.Queries, c claim) ([]coupon.Coupon, error) {
		now, shard, limit := c.args()
		rows, err := q.ClaimLocks(ctx, dbsqlc.ClaimLocksParams{Now: sql.NullTime{Time: now, Valid: true}, Shard: shard, Limit: limit})
		return sqlfile.Convert(rows, err, storedCoupon)
	}, func(c coupon.Coupon) time.Time { return c.LockedUntil })
}

// NextDue reads the earliest pending due time of kind p.Kind in the
// shards of p.Leases.
func (e *executor) NextDue(ctx context.Context, p driver.NextDueParams) (time.Time, error) {
	q, shards := e.sq(), shardList(p.Leases.Shards())
	var (
		v   time.Time
		err error
	)
	switch p.Kind {
	case storetype.TimerExpire:
		v, err = q.NextExpiry(ctx, shards)
	case storetype.TimerRelease:
		var t sql.NullTime
		t, err = q.NextRelease(ctx, shards)
		v = t.Time
	case storetype.TimerClose:
		v, err = q.NextDeadline(ctx, shards)
	case storetype.TimerRemind:
		v, err = q.NextReminder(ctx, shards)
	default:
		return v, fmt.Errorf("next due: no timer kind %q", p.Kind)
	}
	if err != nil && err != sql.ErrNoRows {
		return v, err
	}
	return v, nil
}

// shardList is shards as sqlc types a list of them.
func shardList(shards []int) []uint8 {
	out := make([]uint8, len(shards))
	for i, s := range shards {
		out[i] = uint8(s)
	}
	return out
}

// Stats reads the due backlog and the outbox size, outside a transaction
// on the engine pool: the engine's metrics read them.
func (e *executor) Stats(ctx context.Context, now time.Time) (storetype.Stats, error) {
	var st storetype.Stats
	q := e.engine()
	sq := dbsqlc.New(q)
	var err error
	st.DueBacklog, err = sq.DueBacklog(ctx, dbsqlc.DueBacklogParams{
		ExpiresAt: now, LockedUntil: sql.NullTime{Time: now, Valid: true}, Deadline: now, DueAt: now,
	})
	if err != nil {
		return st, err
	}
	if st.OpenOrders, err = sq.OpenOrders(ctx); err != nil {
		return st, err
	}
	st.Outbox, err = sq.OutboxSize(ctx)
	return st, err
}
