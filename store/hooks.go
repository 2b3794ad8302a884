package store

import (
	"time"

	"github.com/lapsehq/lapse/storetype"
)

// Hooks tell the rest of the process what a DB committed: it calls
// Committed after each commit, never for a transaction that rolled back.
// The zero value does nothing.
type Hooks struct {
	// OnTimer, if set, is called with every group timer a committed
	// transaction wrote, so an in-process wheel learns of near work without
	// polling.
	OnTimer func(storetype.Timer)
	// OnEvents, if set, is called with the events a committed transaction
	// wrote (for counters, and to wake the outbox relay). The events of a
	// CouponEvents record (a drain's expiries, an issuance's claims) come
	// with their ID, type, subject and time but without Data: read the
	// outbox for it.
	OnEvents func([]storetype.Event)
	// OnReminders, if set, is called after each commit that planned, sent
	// or dropped reminders, with what it did (for metrics).
	OnReminders func(ReminderCounts)
	// OnArchived, if set, is called after each archive batch that
	// committed, with what it moved or deleted (ArchivedCoupons,
	// ArchivedOrders, PrunedReminders) and how many.
	OnArchived func(what string, n int64)
	// OnUserWrite, if set, is called after each user's write (a foreground
	// transaction) committed, with how long it took from its first begin,
	// retries and waits included: what the user felt (engine.Pace).
	OnUserWrite func(took time.Duration)
}

// Committed calls the hooks for one committed transaction.
func (h Hooks) Committed(timers []storetype.Timer, events []storetype.Event) {
	if h.OnTimer != nil {
		for _, tm := range timers {
			h.OnTimer(tm)
		}
	}
	if h.OnEvents != nil && len(events) > 0 {
		h.OnEvents(events)
	}
}
