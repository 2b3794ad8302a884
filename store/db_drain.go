package store

import (
	"context"
	"time"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/storetype"
)

// ExpireDue expires up to p.Limit due unused coupons in one transaction,
// each with its coupon.expired event and the counts.
func (db *DB) ExpireDue(ctx context.Context, p storetype.DueParams) (Drained, error) {
	return drain(ctx, db, storetype.TimerExpire, p, driver.Executor.ExpireDue, expiredIn)
}

// ReleaseLocks gives back up to p.Limit locked coupons whose lock TTL has
// passed, to unused or, past their expires_at, to expired.
func (db *DB) ReleaseLocks(ctx context.Context, p storetype.DueParams) (Drained, error) {
	return drain(ctx, db, storetype.TimerRelease, p, driver.Executor.LocksDue, releaseIn)
}

// CloseDueOrders closes up to p.Limit unpaid orders past their deadline
// with reason timeout.
func (db *DB) CloseDueOrders(ctx context.Context, p storetype.DueParams) (Drained, error) {
	return drain(ctx, db, storetype.TimerClose, p, driver.Executor.OrdersDue, closeDueIn)
}

// SendDueReminders sends, drops or holds back up to p.Limit due reminders
// in one transaction.
func (db *DB) SendDueReminders(ctx context.Context, p storetype.DueParams) (Drained, error) {
	return drain(ctx, db, storetype.TimerRemind, p, driver.Executor.RemindersDue, sendDueIn)
}

// drain runs one drain batch of kind in a background transaction: due
// reads what is due of p's shards and do does the work on it at p.Now,
// returning the due times of what it did; then the batch reads what is
// due next in its shards, and commits only if it still holds p.Leases.
func drain[R any](ctx context.Context, db *DB, kind storetype.TimerKind, p storetype.DueParams,
	due func(driver.Executor, context.Context, storetype.DueParams) (R, error), do func(*txn, R, time.Time) ([]time.Time, error)) (Drained, error) {
	return background(ctx, db, func(t *txn) (Drained, error) {
		var d Drained
		rows, err := due(t.ExecutorTx, t.ctx, p)
		if err != nil {
			return d, err
		}
		if d.Due, err = do(t, rows, p.Now); err != nil {
			return d, err
		}
		if d.Next, err = t.NextDue(t.ctx, driver.NextDueParams{Kind: kind, Leases: p.Leases}); err != nil {
			return d, err
		}
		return d, t.fence(p.Leases)
	})
}

// Timers returns group timers due at or before p.Before.
func (db *DB) Timers(ctx context.Context, p storetype.TimersParams) ([]storetype.Timer, error) {
	return read(ctx, db, func(x driver.Executor) ([]storetype.Timer, error) { return x.Timers(ctx, p) })
}

// DeleteTimers removes the timers of p.Kind whose bucket ended by
// p.Through.
func (db *DB) DeleteTimers(ctx context.Context, p DeleteTimersParams) error {
	_, err := background(ctx, db, func(t *txn) (struct{}, error) {
		return struct{}{}, t.DeleteTimers(t.ctx, driver.DeleteTimersParams{Kind: p.Kind, Through: p.Through})
	})
	return err
}

// PruneRequests deletes up to p.Limit expired requests, oldest first.
func (db *DB) PruneRequests(ctx context.Context, p storetype.PruneRequestsParams) (int64, error) {
	return background(ctx, db, func(t *txn) (int64, error) { return t.PruneRequests(t.ctx, p) })
}

// Lease renews, gives up and takes shard leases for p.Holder in one
// transaction; see LeaseIn.
func (db *DB) Lease(ctx context.Context, p LeaseParams) ([]storetype.Lease, error) {
	return background(ctx, db, func(t *txn) ([]storetype.Lease, error) { return leaseIn(t.ctx, t, p) })
}

// Clock reads the database's clock, once: the engine times the round
// trip to measure its skew, which a retry would lengthen.
func (db *DB) Clock(ctx context.Context) (time.Time, error) {
	now, err := db.d.Executor().Clock(ctx)
	return now, db.classify(err)
}

// Stats reads the gauges the engine exports.
func (db *DB) Stats(ctx context.Context, now time.Time) (storetype.Stats, error) {
	return read(ctx, db, func(x driver.Executor) (storetype.Stats, error) { return x.Stats(ctx, now) })
}

// Ready reports whether the database answers and is migrated.
func (db *DB) Ready(ctx context.Context) error { return db.d.Ready(ctx) }

// Close releases the database's connections.
func (db *DB) Close() error { return db.d.Close() }
