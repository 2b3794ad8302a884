package sqlite

import (
	"context"
	"database/sql"
	"strconv"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/store"
)

// expireChunk is how many rows one statement of ExpireDue expires. Between
// two, a batch looks whether a user's write waits for the writer and, if
// one does, commits what it has: a user waits for one chunk, not a batch.
const expireChunk = 100

// ExpireDue expires up to p.Limit due unused coupons in one transaction,
// with a coupon.expired event each, a chunk at a time; it ends the batch
// early for a user waiting to write. The events of a chunk are written by
// one statement from the rowids its update returned.
func (s *Store) ExpireDue(ctx context.Context, p store.DueParams) (store.Drained, error) {
	return backgroundTx(ctx, s, func(t *tx) (store.Drained, error) {
		var d store.Drained
		perTemplate := map[string]int64{}
		for len(d.Due) < p.Limit {
			n := min(expireChunk, p.Limit-len(d.Due))
			got, err := t.expireChunk(p.Now, n, shardFilter(p.Leases), perTemplate, &d)
			if err != nil {
				return d, err
			}
			if got < n || s.gate.busy() {
				break
			}
		}
		if err := store.MoveCounts(t, perTemplate, coupon.Unused, coupon.Expired); err != nil {
			return d, err
		}
		var err error
		d.Next, err = t.nextIn(p.Leases, "NextExpiry")
		return d, err
	})
}

// expireChunk expires up to n due coupons of shards (see shardFilter) with
// their events, adds them to perTemplate and their due times to d, and
// returns how many it expired.
func (t *tx) expireChunk(now time.Time, n int, shards string, perTemplate map[string]int64, d *store.Drained) (int, error) {
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
		d.Due = append(d.Due, at(expiresAt))
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil || got == 0 {
		return got, err
	}
	rows.Close()
	rowids = append(rowids, ']')
	first := d.Due[len(d.Due)-got]
	if _, err := t.exec("InsertExpiredEvents", store.IDTime(now), ms(now), string(rowids), ms(first), apiTime(first)); err != nil {
		return got, err
	}
	t.sqlEvents(store.EventCouponExpired, now, ids)
	return got, nil
}

// ReleaseLocks gives back up to p.Limit locked coupons whose lock TTL has
// passed, to unused or, past their expires_at, to expired.
func (s *Store) ReleaseLocks(ctx context.Context, p store.DueParams) (store.Drained, error) {
	return backgroundTx(ctx, s, func(t *tx) (store.Drained, error) {
		var d store.Drained
		rows, err := t.query("LocksDue", ms(p.Now), p.Limit, shardFilter(p.Leases))
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
		if d.Due, err = store.ReleaseIn(t, locked, p.Now); err != nil {
			return d, err
		}
		d.Next, err = t.nextIn(p.Leases, "NextRelease")
		return d, err
	})
}

// next reads the earliest pending due time with the named query.
func (t *tx) next(name string, args ...any) (time.Time, error) {
	var v int64
	err := t.queryRow(name, args...).Scan(&v)
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
