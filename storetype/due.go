package storetype

import (
	"time"

	"github.com/lapsehq/lapse/order"
)

// DueParams are the inputs of the drains.
type DueParams struct {
	Now   time.Time
	Limit int
	// Leases, if set, limit the drain to their shards and fence it: see
	// store.DB.Lease.
	Leases Leases
}

// TimersParams are the inputs of Timers.
type TimersParams struct {
	Before time.Time
	Limit  int
}

// DueOrders is what DueOrders found: unpaid orders past their deadline,
// and the first deadline after now of those not yet due.
type DueOrders struct {
	Orders []order.Order
	Next   time.Time
}
