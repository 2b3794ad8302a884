package storetype

import "time"

// Archived counts what one archive run moved or deleted (or, in a dry
// run, would have).
type Archived struct {
	// Coupons and Orders moved to the archive.
	Coupons int64
	Orders  int64
	// Reminders deleted: sent and dropped ones.
	Reminders int64
}

// PruneRequestsParams are the inputs of PruneRequests.
type PruneRequestsParams struct {
	Before time.Time
	Limit  int
}
