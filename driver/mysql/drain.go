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
	expired, err := readDue(ctx, e.q, p, "DueExpiryShards", "ClaimExpiries", func(row sqlfile.Scanner) (c coupon.Coupon, err error) {
		return c, row.Scan(&c.ID, &c.TemplateID, &c.UserID, &c.ExpiresAt)
	}, func(c coupon.Coupon) time.Time { return c.ExpiresAt })
	if err != nil {
		return nil, err
	}
	if len(expired) > 0 {
		ids := []any{p.Now}
		for _, c := range expired {
			ids = append(ids, c.ID)
		}
		// The rows are locked by this transaction: anything but all of
		// them changed is a bug, not a race.
		n, err := e.execCount(ctx, "ExpireClaimed", len(expired), ids...)
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
	return readDue(ctx, e.q, p, "DueLockShards", "ClaimLocks", scanCoupon, func(c coupon.Coupon) time.Time { return c.LockedUntil })
}

// nextQueries names the query of each kind's earliest pending due time.
var nextQueries = map[storetype.TimerKind]string{
	storetype.TimerExpire: "NextExpiry", storetype.TimerRelease: "NextRelease",
	storetype.TimerClose: "NextDeadline", storetype.TimerRemind: "NextReminder",
}

// NextDue reads the earliest pending due time of kind p.Kind in the
// shards of p.Leases.
func (e *executor) NextDue(ctx context.Context, p driver.NextDueParams) (time.Time, error) {
	var v time.Time
	shards := p.Leases.Shards()
	err := e.q.QueryRowContext(ctx, expand(queries.Get(nextQueries[p.Kind]), len(shards)), withShards(nil, shards)...).Scan(&v)
	if err != nil && err != sql.ErrNoRows {
		return v, err
	}
	return v, nil
}

// withShards returns the arguments of a query with a list of shards:
// first, if set, then the shards, then after.
func withShards(first any, shards []int, after ...any) []any {
	var args []any
	if first != nil {
		args = append(args, first)
	}
	for _, s := range shards {
		args = append(args, s)
	}
	return append(args, after...)
}

// Stats reads the due backlog and the outbox size, outside a transaction
// on the engine pool: the engine's metrics read them.
func (e *executor) Stats(ctx context.Context, now time.Time) (storetype.Stats, error) {
	var st storetype.Stats
	q := e.engine()
	if err := q.QueryRowContext(ctx, queries.Get("DueBacklog"), now, now, now, now).Scan(&st.DueBacklog); err != nil {
		return st, err
	}
	var err error
	if st.OpenOrders, err = dbsqlc.New(q).OpenOrders(ctx); err != nil {
		return st, err
	}
	err = q.QueryRowContext(ctx, queries.Get("OutboxSize")).Scan(&st.Outbox)
	return st, err
}
