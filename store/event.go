package store

import (
	"encoding/json"

	"github.com/lapsehq/lapse/storetype"
)

// Event types; the type names the state the subject moved to.
const (
	EventCouponClaimed  = "coupon.claimed"
	EventCouponLocked   = "coupon.locked"
	EventCouponUnlocked = "coupon.unlocked"
	EventCouponRedeemed = "coupon.redeemed"
	EventCouponRefunded = "coupon.refunded"
	EventCouponExpired  = "coupon.expired"
	EventCouponVoided   = "coupon.voided"

	// EventTemplateUpdated: an operator changed a template's name, value,
	// total or reminders.
	EventTemplateUpdated = "template.updated"
	// EventTemplateClosed: an operator closed a template.
	EventTemplateClosed = "template.closed"

	// EventOperationCancelled: an operator cancelled a running bulk
	// operation; its data says how far it had come (OperationEventData).
	EventOperationCancelled = "operation.cancelled"
)

// OperationEventData is the data of an operation.* event.
type OperationEventData struct {
	Kind  string `json:"kind"`
	Done  int64  `json:"done"`
	Total int64  `json:"total"`
}

// Reasons recorded in an event's data.
const (
	ReasonClaim   = "claim"
	ReasonExpiry  = "expiry"
	ReasonLockTTL = "lock_ttl"
	ReasonOrder   = "order"
	// ReasonOrderClosed: a coupon given back because its order closed.
	ReasonOrderClosed = "order_closed"
)

// CouponEventData is the data of every coupon.* event.
type CouponEventData struct {
	From       string              `json:"from,omitempty"`
	Reason     string              `json:"reason,omitempty"`
	UserID     string              `json:"user_id"`
	TemplateID string              `json:"template_id"`
	OrderID    string              `json:"order_id,omitempty"`
	ExpiresAt  storetype.Timestamp `json:"expires_at"`
	// Operation is the bulk operation that made the transition, if one
	// did.
	Operation string `json:"operation,omitempty"`
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only ever called with plain structs
	}
	return b
}
