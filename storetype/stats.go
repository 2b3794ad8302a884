package storetype

// Stats are gauges read from the store.
type Stats struct {
	// DueBacklog counts work due but not yet done: unused coupons past
	// expires_at, locked coupons past locked_until, unpaid orders past
	// their deadline, planned reminders past their due time.
	DueBacklog int64
	// Outbox counts events held in the outbox.
	Outbox int64
	// OpenOrders counts unpaid orders.
	OpenOrders int64
}
