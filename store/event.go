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

	// EventTemplateUpdated: an operator changed a template's name, value,
	// total or reminders.
	EventTemplateUpdated = "template.updated"
	// EventTemplateClosed: an operator closed a template.
	EventTemplateClosed = "template.closed"
)

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
	From       string    `json:"from,omitempty"`
	Reason     string    `json:"reason,omitempty"`
	UserID     string    `json:"user_id"`
	TemplateID string    `json:"template_id"`
	OrderID    string    `json:"order_id,omitempty"`
	ExpiresAt  Timestamp `json:"expires_at"`
	// Operation is the bulk operation that made the transition, if one
	// did.
	Operation string `json:"operation,omitempty"`
}

// Timestamp is a time that marshals as the API writes times: RFC 3339 in
// UTC with milliseconds.
type Timestamp time.Time

// TimeFormat is the API's time layout.
const TimeFormat = "2006-01-02T15:04:05.000Z07:00"

// MarshalJSON writes t in TimeFormat.
func (t Timestamp) MarshalJSON() ([]byte, error) {
	return []byte(`"` + time.Time(t).UTC().Format(TimeFormat) + `"`), nil
}

// UnmarshalJSON reads any RFC 3339 time.
func (t *Timestamp) UnmarshalJSON(b []byte) error {
	return (*time.Time)(t).UnmarshalJSON(b)
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only ever called with plain structs
	}
	return b
}
