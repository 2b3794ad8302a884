package store

// Hooks tell the rest of the process what a DB committed: it calls
// Committed after each commit, never for a transaction that rolled back.
// The zero value does nothing.
type Hooks struct {
	// OnTimer, if set, is called with every group timer a committed
	// transaction wrote, so an in-process wheel learns of near work without
	// polling.
	OnTimer func(Timer)
	// OnEvents, if set, is called with the events a committed transaction
	// wrote (for counters, and to wake the outbox relay). The events of a
	// CouponEvents record (a drain's expiries, an issuance's claims) come
	// with their ID, type, subject and time but without Data: read the
	// outbox for it.
	OnEvents func([]Event)
	// OnReminders, if set, is called after each commit that planned, sent
	// or dropped reminders, with what it did (for metrics).
	OnReminders func(ReminderCounts)
	// OnArchived, if set, is called after each archive batch that
	// committed, with what it moved or deleted (ArchivedCoupons,
	// ArchivedOrders, PrunedReminders) and how many.
	OnArchived func(what string, n int64)
	// OnMigrated, if set, is called as the store opens with what its
	// opening did to the schema.
	OnMigrated func(SchemaChange)
}

// SchemaChange is what opening a store did to its schema. A version is a
// migration's number, the same on every store; the schema's is the
// highest its database records, 0 for a new one.
type SchemaChange struct {
	// From and To are the schema's versions before and after.
	From, To int
	// Applied names the migrations applied, in order: none if the schema
	// was up to date.
	Applied []string
	// Renumbered is set when the database recorded its store's own
	// numbering, from before every store shared one, and now records the
	// shared one.
	Renumbered bool
}

// Migrated calls OnMigrated, if set, with what an opening did to the
// schema.
func (h Hooks) Migrated(c SchemaChange) {
	if h.OnMigrated != nil {
		h.OnMigrated(c)
	}
}

// Committed calls the hooks for one committed transaction.
func (h Hooks) Committed(timers []Timer, events []Event) {
	if h.OnTimer != nil {
		for _, tm := range timers {
			h.OnTimer(tm)
		}
	}
	if h.OnEvents != nil && len(events) > 0 {
		h.OnEvents(events)
	}
}
