package sqlite

import (
	"context"
	"database/sql"
	"strconv"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/store/sqlfile"
)

// expireChunk is how many rows one statement of ExpireDue expires. Between
// two, a batch looks whether a user's write waits for the writer and, if
// one does, commits what it has: a user waits for one chunk, not a batch.
const expireChunk = 100

// ExpireDue expires up to p.Limit due unused coupons of p's shards, with a
// coupon.expired event each, a chunk at a time; it ends the batch early
// for a user waiting to write. The events of a chunk are written by one
// statement from the rowids its update returned.
func (t *tx) ExpireDue(p store.DueParams) ([]time.Time, error) {
	var due []time.Time
	perTemplate := map[string]int64{}
	shards := shardFilter(p.Leases)
	for len(due) < p.Limit {
		n := min(expireChunk, p.Limit-len(due))
		got, err := t.expireChunk(p.Now, n, shards, perTemplate, &due)
		if err != nil {
			return nil, err
		}
		if got < n || t.driver.gate.busy() {
			break
		}
	}
	return due, store.MoveCounts(t, perTemplate, coupon.Unused, coupon.Expired)
}

// expireChunk expires up to n due coupons of shards (see shardFilter)
// with their events, adds them to perTemplate and their due times to due,
// and returns how many it expired.
func (t *tx) expireChunk(now time.Time, n int, shards string, perTemplate map[string]int64, due *[]time.Time) (int, error) {
	rows, err := t.query("ExpireDue", ms(now), n, shards)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	rowids := make([]byte, 0, 16*n)
	rowids = append(rowids, '[')
	var ids []string
	got := 0
	for rows.Next() {
		var (
			rowid, expiresAt int64
			id, templateID   string
		)
		if err := rows.Scan(&rowid, &id, &templateID, &expiresAt); err != nil {
			return got, err
		}
		if got++; got > 1 {
			rowids = append(rowids, ',')
		}
		rowids = strconv.AppendInt(rowids, rowid, 10)
		perTemplate[templateID]++
		*due = append(*due, at(expiresAt))
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil || got == 0 {
		return got, err
	}
	rows.Close()
	rowids = append(rowids, ']')
	first := (*due)[len(*due)-got]
	if _, err := t.exec("InsertExpiredEvents", store.IDTime(now), ms(now), string(rowids), ms(first), apiTime(first)); err != nil {
		return got, err
	}
	t.sqlEvents(store.EventCouponExpired, now, ids)
	return got, nil
}

// LocksDue reads up to p.Limit locked coupons of p's shards due at p.Now.
// The one writer holds them.
func (t *tx) LocksDue(p store.DueParams) ([]coupon.Coupon, error) {
	rows, err := t.query("LocksDue", ms(p.Now), p.Limit, shardFilter(p.Leases))
	return sqlfile.Collect(rows, err, scanCoupon)
}

// nextQueries names the query of each kind's earliest pending due time.
var nextQueries = map[store.TimerKind]string{
	store.TimerExpire: "NextExpiry", store.TimerRelease: "NextRelease",
	store.TimerClose: "NextDeadline", store.TimerRemind: "NextReminder",
}

// NextDue reads the earliest pending due time of kind in the shards of ls.
func (t *tx) NextDue(kind store.TimerKind, ls []store.Lease) (time.Time, error) {
	var v int64
	err := t.queryRow(nextQueries[kind], shardFilter(ls)).Scan(&v)
	if err == sql.ErrNoRows {
		return time.Time{}, nil
	}
	return at(v), err
}

// Stats reads the due backlog and the outbox size.
func (s *Driver) Stats(ctx context.Context, now time.Time) (store.Stats, error) {
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
