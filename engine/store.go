package engine

import (
	"context"
	"time"

	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// Store is what the engine calls of the store (*store.DB implements it),
// grouped by the loop that calls it.
type Store interface {
	// The drains and their timers (engine.go).
	ExpireDue(ctx context.Context, p storetype.DueParams) (store.Drained, error)
	ReleaseLocks(ctx context.Context, p storetype.DueParams) (store.Drained, error)
	CloseDueOrders(ctx context.Context, p storetype.DueParams) (store.Drained, error)
	SendDueReminders(ctx context.Context, p storetype.DueParams) (store.Drained, error)
	Timers(ctx context.Context, p storetype.TimersParams) ([]storetype.Timer, error)
	DeleteTimers(ctx context.Context, p store.DeleteTimersParams) error

	// Closing due orders after a payment check (payments.go).
	DueOrders(ctx context.Context, p storetype.DueParams) (storetype.DueOrders, error)
	PayOrder(ctx context.Context, p store.PayOrderParams) (order.Order, error)
	CloseOrder(ctx context.Context, p store.CloseOrderParams) (order.Order, error)

	// Bulk operations (operations.go).
	ClaimOperation(ctx context.Context, p store.ClaimOperationParams) (store.Operation, bool, error)
	WorkOperation(ctx context.Context, p store.WorkOperationParams) (store.Operation, error)

	// Housekeeping (archive.go, requests.go, reconcile.go).
	Archive(ctx context.Context, p store.ArchiveParams) (storetype.Archived, error)
	PruneRequests(ctx context.Context, p storetype.PruneRequestsParams) (int64, error)
	Reconcile(ctx context.Context, p store.ReconcileParams) (store.Reconciliation, error)

	// One engine of many (Config.Holder): shard leases, the database's
	// clock, and the record of this instance's skew (leases.go, clock.go,
	// instance.go).
	Lease(ctx context.Context, p store.LeaseParams) ([]storetype.Lease, error)
	Clock(ctx context.Context) (time.Time, error)
	MeasuredSkew(ctx context.Context, p store.MeasuredSkewParams) error
}

// leaser takes and renews shard leases: what leases needs of Store.
type leaser interface {
	Lease(ctx context.Context, p store.LeaseParams) ([]storetype.Lease, error)
}

// StatsReader reads the gauges Metrics exports.
type StatsReader interface {
	Stats(ctx context.Context, now time.Time) (storetype.Stats, error)
}
