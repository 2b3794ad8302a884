package store

import (
	"time"

	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/storetype"
)

// PutSKUParams are the inputs of PutSKU: Stock is the new total, Buckets
// how many buckets it is split into (0 keeps the SKU's count, 1 for a new
// SKU; at most order.MaxBuckets).
type PutSKUParams struct {
	SKU     string
	Stock   int64
	Buckets int
	Now     time.Time
}

// CreateOrderParams are the inputs of CreateOrder.
type CreateOrderParams struct {
	UserID    string
	Items     []order.Item
	CouponIDs []string
	Deadline  time.Time
	Now       time.Time
	// MaxLockTTL, if set, is how long past its expires_at a coupon may be
	// held by the order, as a lock's ttl is capped: a coupon expiring more
	// than this before the deadline is refused.
	MaxLockTTL time.Duration
	// Idem, if set, is the idempotency key the call runs under.
	Idem *Idempotency
}

// PayOrderParams are the inputs of PayOrder.
type PayOrderParams struct {
	OrderID   string
	PaymentID string
	Amount    int64
	// Confirmed marks a payment the payment-status hook reported for an
	// unpaid order past its deadline: it is accepted while the order is
	// still unpaid, whatever the deadline.
	Confirmed bool
	Now       time.Time
	// Idem, if set, is the idempotency key the call runs under.
	Idem *Idempotency
}

// CloseOrderParams are the inputs of CloseOrder.
type CloseOrderParams struct {
	OrderID string
	Reason  string // order.ReasonCancelled or order.ReasonTimeout
	Now     time.Time
	// Idem, if set, is the idempotency key the call runs under.
	Idem *Idempotency
}

// orderLockMargin is how much longer than its order's deadline a coupon
// lock lasts: the order's close gives the coupon back; the lock TTL is only
// the backstop.
const orderLockMargin = time.Hour

// Order event types.
const (
	EventOrderCreated     = "order.created"
	EventOrderPaid        = "order.paid"
	EventOrderClosed      = "order.closed"
	EventOrderLatePayment = "order.late_payment"
)

// OrderEventData is the data of every order.* event.
type OrderEventData struct {
	From      string   `json:"from,omitempty"`
	Reason    string   `json:"reason,omitempty"`
	UserID    string   `json:"user_id"`
	Total     int64    `json:"total"`
	AmountDue int64    `json:"amount_due"`
	CouponIDs []string `json:"coupon_ids"`
	PaymentID string   `json:"payment_id,omitempty"`
	Amount    int64    `json:"amount,omitempty"`
}

// OrderEvent builds the event of one order transition.
func OrderEvent(o order.Order, typ string, from order.Status, reason string, at time.Time) storetype.Event {
	d := OrderEventData{Reason: reason, UserID: o.UserID, Total: o.Total, AmountDue: o.AmountDue, CouponIDs: o.CouponIDs, PaymentID: o.PaymentID}
	if from != 0 {
		d.From = from.String()
	}
	return storetype.Event{ID: NewID("evt", at), Type: typ, Subject: o.ID, Time: at, Data: mustJSON(d)}
}

// LatePaymentEvent records a payment refused because its order had
// closed. Its ID is a digest of the order and the payment (see
// digestID), so a retried payment writes it once, and it fits the
// events' ID column however long the payment ID is.
func LatePaymentEvent(o order.Order, paymentID string, amount int64, at time.Time) storetype.Event {
	d := OrderEventData{From: o.Status.String(), Reason: "payment_after_close", UserID: o.UserID, Total: o.Total,
		AmountDue: o.AmountDue, CouponIDs: o.CouponIDs, PaymentID: paymentID, Amount: amount}
	return storetype.Event{ID: digestID("evt_late", o.ID, paymentID), Type: EventOrderLatePayment, Subject: o.ID, Time: at, Data: mustJSON(d)}
}
