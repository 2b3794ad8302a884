package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/sqlite/internal/dbsqlc"
	"github.com/lapsehq/lapse/storetype"
)

// expireChunk is how many rows one statement of ExpireDue expires. Between
// two, a batch looks whether a user's write waits for the writer and, if
// one does, commits what it has: a user waits for one chunk, not a batch.
const expireChunk = 100

// ExpireDue expires up to p.Limit due unused coupons of p's shards, a
// chunk at a time, and returns them; it ends the batch early for a user
// waiting to write.
func (e *executor) ExpireDue(ctx context.Context, p storetype.DueParams) ([]coupon.Coupon, error) {
	var expired []coupon.Coupon
	shards := shardFilter(p.Leases)
	for len(expired) < p.Limit {
		n := min(expireChunk, p.Limit-len(expired))
		rows, err := e.q().ExpireDue(ctx, dbsqlc.ExpireDueParams{Now: ms(p.Now), Shards: shards, Lim: int64(n)})
		chunk, err := sqlfile.Convert(rows, err, func(r dbsqlc.ExpireDueRow) (coupon.Coupon, error) {
			return coupon.Coupon{ID: r.ID, TemplateID: r.TemplateID, UserID: r.UserID, ExpiresAt: at(r.ExpiresAt)}, nil
		})
		if err != nil {
			return nil, err
		}
		expired = append(expired, chunk...)
		if len(chunk) < n || e.d.gate.busy() {
			break
		}
	}
	// RETURNING gives no order: each chunk is the earliest due left, so
	// sorting them all sorts the batch.
	slices.SortStableFunc(expired, func(a, b coupon.Coupon) int { return a.ExpiresAt.Compare(b.ExpiresAt) })
	return expired, nil
}

// LocksDue reads up to p.Limit locked coupons of p's shards due at p.Now.
// In a transaction the one writer holds them.
func (e *executor) LocksDue(ctx context.Context, p storetype.DueParams) ([]coupon.Coupon, error) {
	rows, err := e.q().LocksDue(ctx, dbsqlc.LocksDueParams{Now: msNotNull(p.Now), Shards: shardFilter(p.Leases), Lim: int64(p.Limit)})
	return sqlfile.Convert(rows, err, couponOf)
}

// NextDue reads the earliest pending due time of kind p.Kind in the
// shards of p.Leases.
func (e *executor) NextDue(ctx context.Context, p driver.NextDueParams) (time.Time, error) {
	q, shards := e.q(), shardFilter(p.Leases)
	var (
		v   int64
		err error
	)
	switch p.Kind {
	case storetype.TimerExpire:
		v, err = q.NextExpiry(ctx, shards)
	case storetype.TimerRelease:
		var n sql.NullInt64
		n, err = q.NextRelease(ctx, shards)
		v = n.Int64
	case storetype.TimerClose:
		v, err = q.NextDeadline(ctx, shards)
	case storetype.TimerRemind:
		v, err = q.NextReminder(ctx, shards)
	default:
		return time.Time{}, fmt.Errorf("next due: no timer kind %q", p.Kind)
	}
	if err == sql.ErrNoRows {
		return time.Time{}, nil
	}
	return at(v), err
}

// Stats reads the due backlog and the outbox size.
func (e *executor) Stats(ctx context.Context, now time.Time) (storetype.Stats, error) {
	var (
		st  storetype.Stats
		err error
	)
	if st.DueBacklog, err = e.q().DueBacklog(ctx, ms(now)); err != nil {
		return st, err
	}
	if st.OpenOrders, err = e.q().OpenOrders(ctx); err != nil {
		return st, err
	}
	st.Outbox, err = e.q().OutboxSize(ctx)
	return st, err
}
