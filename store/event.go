package store

import (
	"encoding/json"
	"time"
)

// Event is one outbox entry. ID is its idempotency key; Seq its position in
// commit order, the feed's cursor.
type Event struct {
	Seq     int64
	ID      string
	Type    string
	Subject string
	Time    time.Time
	Data    json.RawMessage
}

// Event types; the type names the state the subject moved to.
const (
	EventCouponClaimed  = "coupon.claimed"
	EventCouponLocked   = "coupon.locked"
	EventCouponUnlocked = "coupon.unlocked"
	EventCouponRedeemed = "coupon.redeemed"
	EventCouponRefunded = "coupon.refunded"
	EventCouponExpired  = "coupon.expired"
	EventCouponVoided   = "coupon.voided"
)

// Reasons recorded in an event's data.
const (
	ReasonClaim   = "claim"
	ReasonExpiry  = "expiry"
	ReasonLockTTL = "lock_ttl"
	ReasonOrder   = "order"
)

// CouponEventData is the data of every coupon.* event.
type CouponEventData struct {
	From       string    `json:"from,omitempty"`
	Reason     string    `json:"reason,omitempty"`
	UserID     string    `json:"user_id"`
	TemplateID string    `json:"template_id"`
	OrderID    string    `json:"order_id,omitempty"`
	ExpiresAt  time.Time `json:"expires_at"`
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only ever called with plain structs
	}
	return b
}
