package store

import (
	"context"
	"errors"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/storetype"
)

// DefaultArchiveAfter is how long a terminal coupon or a paid or closed
// order stays in the hot tables after its last change, by default.
const DefaultArchiveAfter = 30 * 24 * time.Hour

// ArchiveBatch is how many rows one archive or prune transaction moves or
// deletes when ArchiveParams.Limit is 0: small, so that a user's write
// never waits long behind one.
const ArchiveBatch = 1000

// ReminderHistory is how long a sent or dropped reminder is kept at least,
// whatever ArchiveParams.Before says: the daily cap counts the reminders
// a user was sent in their last day.
const ReminderHistory = 48 * time.Hour

// ArchiveParams are the inputs of Archive.
type ArchiveParams struct {
	// Before: terminal coupons (used, expired, voided) and paid or closed
	// orders last changed at or before it move to the archive, and sent
	// or dropped reminders done at or before it (and ReminderHistory
	// before Now) are deleted.
	Before time.Time
	// Now is the archive's clock: each moved row's archived_at.
	Now time.Time
	// Limit is how many rows one transaction moves; 0 means ArchiveBatch.
	Limit int
	// DryRun counts what would move and be deleted, and changes nothing.
	DryRun bool
	// Leases, if set, fence every batch: see Store.Lease.
	Leases storetype.Leases
}

// What an archive batch moved or deleted, as the hook OnArchived hears
// it.
const (
	ArchivedCoupons = "coupons"
	ArchivedOrders  = "orders"
	PrunedReminders = "reminders"
)

// Archive moves terminal coupons and paid or closed orders last changed
// at or before p.Before to the archive tables, and deletes sent and
// dropped reminders done by then, a batch of p.Limit rows per background
// transaction, until none is left or ctx is done (between batches). Every
// batch counts in the hook OnArchived once it commits. A row moved is
// still read by Coupon, Order and UserCoupons (with Archived), counts
// towards its template's per-user limit, and leaves its template's counts
// as they were. The archive's rows are read-only: a transition of an
// archived coupon or order finds nothing.
func (db *DB) Archive(ctx context.Context, p ArchiveParams) (storetype.Archived, error) {
	if p.Limit <= 0 {
		p.Limit = ArchiveBatch
	}
	reminders := storetype.PruneRequestsParams{Before: p.Before, Limit: p.Limit}
	if last := p.Now.Add(-ReminderHistory); last.Before(reminders.Before) {
		reminders.Before = last
	}
	if p.DryRun {
		return read(ctx, db, func(x driver.Executor) (storetype.Archived, error) {
			return x.Archivable(ctx, driver.ArchivableParams{Move: driver.MoveParams{Before: p.Before, Now: p.Now}, Reminders: reminders.Before})
		})
	}
	move := driver.MoveParams{Before: p.Before, Now: p.Now, Limit: p.Limit}
	var total storetype.Archived
	steps := []struct {
		what string
		n    *int64
		do   func(*txn) (int64, error)
	}{
		{ArchivedCoupons, &total.Coupons, func(t *txn) (int64, error) { return t.ArchiveCoupons(t.ctx, move) }},
		{ArchivedOrders, &total.Orders, func(t *txn) (int64, error) { return t.ArchiveOrders(t.ctx, move) }},
		{PrunedReminders, &total.Reminders, func(t *txn) (int64, error) { return t.PruneReminders(t.ctx, reminders) }},
	}
	for _, s := range steps {
		for ctx.Err() == nil {
			n, err := background(ctx, db, func(t *txn) (int64, error) {
				n, err := s.do(t)
				if err != nil {
					return 0, err
				}
				return n, t.fence(p.Leases)
			})
			if err != nil {
				return total, err
			}
			*s.n += n
			if h := db.hooks.OnArchived; h != nil && n > 0 {
				h(s.what, n)
			}
			if n < int64(p.Limit) {
				break
			}
		}
	}
	return total, ctx.Err()
}

// Coupon returns one coupon as stored: in the hot table, or else in the
// archive.
func (db *DB) Coupon(ctx context.Context, id string) (coupon.Coupon, error) {
	return hotThenArchive(func(archived bool) (coupon.Coupon, error) {
		return read(ctx, db, func(x driver.Executor) (coupon.Coupon, error) {
			return x.Coupon(ctx, driver.CouponParams{ID: id, Archived: archived})
		})
	})
}

// Order returns one order: from the hot table, or else from the archive.
func (db *DB) Order(ctx context.Context, id string) (order.Order, error) {
	return hotThenArchive(func(archived bool) (order.Order, error) {
		return read(ctx, db, func(x driver.Executor) (order.Order, error) {
			return x.Order(ctx, driver.OrderParams{ID: id, Archived: archived})
		})
	})
}

// hotThenArchive reads a row from the hot table, and from the archive if
// the hot table has nothing: a row moves from one to the other in one
// transaction, so the second read finds what the first missed.
func hotThenArchive[T any](read func(archived bool) (T, error)) (T, error) {
	v, err := read(false)
	if errors.Is(err, storetype.ErrNotFound) {
		return read(true)
	}
	return v, err
}
