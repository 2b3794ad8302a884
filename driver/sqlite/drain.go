package sqlite

import (
	"context"
	"database/sql"
	"slices"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
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
		rows, err := e.query(ctx, "ExpireDue", ms(p.Now), n, shards)
		chunk, err := sqlfile.Collect(rows, err, func(row sqlfile.Scanner) (c coupon.Coupon, err error) {
			var expiresAt int64
			err = row.Scan(&c.ID, &c.TemplateID, &c.UserID, &expiresAt)
			c.ExpiresAt = at(expiresAt)
			return c, err
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
	rows, err := e.query(ctx, "LocksDue", ms(p.Now), p.Limit, shardFilter(p.Leases))
	return sqlfile.Collect(rows, err, scanCoupon)
}

// nextQueries names the query of each kind's earliest pending due time.
var nextQueries = map[storetype.TimerKind]string{
	storetype.TimerExpire: "NextExpiry", storetype.TimerRelease: "NextRelease",
	storetype.TimerClose: "NextDeadline", storetype.TimerRemind: "NextReminder",
}

// NextDue reads the earliest pending due time of kind p.Kind in the
// shards of p.Leases.
func (e *executor) NextDue(ctx context.Context, p driver.NextDueParams) (time.Time, error) {
	var v int64
	err := e.queryRow(ctx, nextQueries[p.Kind], shardFilter(p.Leases)).Scan(&v)
	if err == sql.ErrNoRows {
		return time.Time{}, nil
	}
	return at(v), err
}

// Stats reads the due backlog and the outbox size.
func (e *executor) Stats(ctx context.Context, now time.Time) (storetype.Stats, error) {
	var st storetype.Stats
	if err := e.queryRow(ctx, "DueBacklog", ms(now)).Scan(&st.DueBacklog); err != nil {
		return st, err
	}
	var err error
	if st.OpenOrders, err = e.q().OpenOrders(ctx); err != nil {
		return st, err
	}
	err = e.queryRow(ctx, "OutboxSize").Scan(&st.Outbox)
	return st, err
}
