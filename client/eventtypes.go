package client

// The event types of the feed (Event.Type, EventQuery.Type): each names
// the state its subject moved to.
const (
	EventCouponClaimed  = "coupon.claimed"
	EventCouponLocked   = "coupon.locked"
	EventCouponUnlocked = "coupon.unlocked"
	EventCouponRedeemed = "coupon.redeemed"
	EventCouponRefunded = "coupon.refunded"
	EventCouponExpired  = "coupon.expired"
	EventCouponVoided   = "coupon.voided"
	// EventCouponExtended: an operation moved the coupon's expiry.
	EventCouponExtended = "coupon.extended"

	EventOrderCreated = "order.created"
	EventOrderPaid    = "order.paid"
	EventOrderClosed  = "order.closed"
	// EventOrderLatePayment: a payment came for a closed order and was
	// refused.
	EventOrderLatePayment = "order.late_payment"

	// EventReminderDue: a reminder of a coupon's expiry is due.
	EventReminderDue = "reminder.due"

	// EventTemplateUpdated: an operator changed a template's name, value,
	// total or reminders.
	EventTemplateUpdated = "template.updated"
	// EventTemplateClosed: an operator closed a template.
	EventTemplateClosed = "template.closed"

	// EventStockRepaired: a reconciliation rewrote a SKU's stock.
	EventStockRepaired = "stock.repaired"
	// EventTimerRepaired: a reconciliation put back a missing timer.
	EventTimerRepaired = "timer.repaired"
	// EventOperationCancelled: an operator cancelled a running bulk
	// operation.
	EventOperationCancelled = "operation.cancelled"
)
