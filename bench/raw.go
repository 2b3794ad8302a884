package bench

import (
	"context"
	"time"

	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/storetype"
)

// Raw is what a backend offers the bench beyond Store: the ways of
// expiring a storm that lapse is measured against, and a read of what the
// drain stored. Each backend keeps its SQL in its own .sql files; one
// without Raw cannot be benched.
type Raw interface {
	// NaiveExpire expires every unused coupon due by now in one statement,
	// as the seeds do: no batches, no events, no counts.
	NaiveExpire(ctx context.Context, now time.Time) (int64, error)
	// FloorExpire expires up to limit unused coupons due by now in one
	// statement with nothing else: no events, no counts, no ordering. Run
	// until it returns less than limit, it is the physical floor of a
	// batched drain on this database.
	FloorExpire(ctx context.Context, now time.Time, limit int) (int64, error)
	// ExpiryLags returns, for every expired coupon, its stored transition
	// time minus its expires_at.
	ExpiryLags(ctx context.Context) ([]time.Duration, error)
	// FloorOrder stores o and its event e, then takes o's one item from
	// its SKU's available stock with a guarded UPDATE (available -= qty
	// where available >= qty), in one plain transaction with nothing else;
	// false, and nothing stored, if the SKU is short. Run by many clients
	// on one SKU, it is the floor of a flash sale on this database.
	FloorOrder(ctx context.Context, o order.Order, e storetype.Event) (bool, error)
	// FloorCloseOrders closes every unpaid order due by now on timeout,
	// gives their locked coupons back to unused and their units back to
	// each SKU's bucket 0, in one plain transaction with nothing else: no
	// events, no counts. It is the floor of an order storm's close on
	// this database, and returns how many orders it closed.
	FloorCloseOrders(ctx context.Context, now time.Time) (int64, error)
	// Settle brings a store just seeded to where one whose rows are old
	// would be: what the seeding wrote flushed from the log into the
	// database's files, and its statistics current, so that a phase
	// measured next pays for its own writes and not for the seed's. The
	// store must have no other work running.
	Settle(ctx context.Context) error
}
