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
// for a user waiting to write. The events are written by one statement
// per record, from the rowids the chunks' updates returned.
func (t *tx) ExpireDue(p store.DueParams) ([]time.Time, error) {
	var (
		due         []time.Time
		rec         expiredRecord
		perTemplate = map[string]int64{}
		shards      = shardFilter(p.Leases)
	)
	for len(due) < p.Limit {
		n := min(expireChunk, p.Limit-len(due), store.MaxRecord-len(rec.ids))
		got, err := t.expireChunk(p.Now, n, shards, perTemplate, &due, &rec)
		if err != nil {
			return nil, err
		}
		if len(rec.ids) == store.MaxRecord {
			if err := t.writeExpired(p.Now, &rec); err != nil {
				return nil, err
			}
		}
		if got < n || t.driver.gate.busy() {
			break
		}
	}
	if err := t.writeExpired(p.Now, &rec); err != nil {
		return nil, err
	}
	return due, store.MoveCounts(t, perTemplate, coupon.Unused, coupon.Expired)
}

// expiredRecord gathers the coupons a batch expired until their events
// are written, as one record.
type expiredRecord struct {
	rowids []byte // a JSON array but for its closing bracket
	ids    []string
	first  time.Time // the first one's expires_at
}

// writeExpired writes the record of the coupons in rec, if any, and
// empties it.
func (t *tx) writeExpired(now time.Time, rec *expiredRecord) error {
	if len(rec.ids) == 0 {
		return nil
	}
	err := t.sqlRecord("InsertExpiredRecord", store.EventCouponExpired, now, rec.ids,
		ms(now), string(append(rec.rowids, ']')), store.IDTime(now), ms(rec.first), apiTime(rec.first))
	*rec = expiredRecord{}
	return err
}

// expireChunk expires up to n due coupons of shards (see shardFilter),
// adds them to rec and perTemplate and their due times to due, and
// returns how many it expired.
func (t *tx) expireChunk(now time.Time, n int, shards string, perTemplate map[string]int64, due *[]time.Time, rec *expiredRecord) (int, error) {
	rows, err := t.query("ExpireDue", ms(now), n, shards)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	got := 0
	for rows.Next() {
		var (
			rowid, expiresAt int64
			id, templateID   string
		)
		if err := rows.Scan(&rowid, &id, &templateID, &expiresAt); err != nil {
			return got, err
		}
		if len(rec.ids) == 0 {
			rec.rowids, rec.first = append(rec.rowids, '['), at(expiresAt)
		} else {
			rec.rowids = append(rec.rowids, ',')
		}
		rec.rowids = strconv.AppendInt(rec.rowids, rowid, 10)
		rec.ids = append(rec.ids, id)
		perTemplate[templateID]++
		*due = append(*due, at(expiresAt))
		got++
	}
	return got, rows.Err()
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
