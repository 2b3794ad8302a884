package driver

import (
	"time"
)

// MoveParams are the inputs of one archive batch (ArchiveCoupons,
// ArchiveOrders).
type MoveParams struct {
	// Before: rows last changed at or before it move.
	Before time.Time
	// Now is each moved row's archived_at.
	Now   time.Time
	Limit int
}
