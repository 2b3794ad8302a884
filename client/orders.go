package client

import (
	"context"
	"net/http"
	"time"
)

// SKU is a SKU's stock.
type SKU struct {
	SKU       string `json:"sku"`
	Available int64  `json:"available"`
	Reserved  int64  `json:"reserved"`
	Sold      int64  `json:"sold"`
	Buckets   int    `json:"buckets"`
}

// Stock is the body of PUT /v1/skus/{sku}.
type Stock struct {
	Stock int64 `json:"stock"`
	// Buckets, 0 to keep the SKU's count, splits its stock for hot SKUs.
	Buckets int `json:"buckets,omitempty"`
}

// Item is one line of an order: Qty of SKU at UnitPrice, in minor units.
type Item struct {
	SKU       string `json:"sku"`
	Qty       int64  `json:"qty"`
	UnitPrice int64  `json:"unit_price"`
}

// NewOrder is the body of POST /v1/orders. Timeout and Deadline are
// alternatives; neither gives the server's default of 30 minutes.
type NewOrder struct {
	UserID    string    `json:"user_id"`
	Items     []Item    `json:"items"`
	CouponIDs []string  `json:"coupon_ids,omitempty"`
	Timeout   Duration  `json:"timeout,omitzero"`
	Deadline  time.Time `json:"deadline,omitzero"`
	// IdempotencyKey, if set, is the request's Idempotency-Key in place
	// of a random one.
	IdempotencyKey string `json:"-"`
}

// Order is an order as the API writes it.
type Order struct {
	ID     string `json:"id"`
	UserID string `json:"user_id"`
	// Status is unpaid, paid or closed (OrderUnpaid…).
	Status string `json:"status"`
	// CloseReason is timeout or cancelled once closed (CloseTimeout,
	// CloseCancelled), else "".
	CloseReason string    `json:"close_reason"`
	Items       []Item    `json:"items"`
	CouponIDs   []string  `json:"coupon_ids"`
	Total       int64     `json:"total"`
	Discount    int64     `json:"discount"`
	AmountDue   int64     `json:"amount_due"`
	Deadline    time.Time `json:"deadline"`
	CreatedAt   time.Time `json:"created_at"`
	UpdatedAt   time.Time `json:"updated_at"`
}

// PutSKU sets a SKU's stock.
func (c *Client) PutSKU(ctx context.Context, sku string, s Stock) (SKU, error) {
	return decoded[SKU](ctx, c, call{method: http.MethodPut, path: "/v1/skus/" + seg(sku), in: s})
}

// SKU reads a SKU's stock.
func (c *Client) SKU(ctx context.Context, sku string) (SKU, error) {
	return decoded[SKU](ctx, c, call{method: http.MethodGet, path: "/v1/skus/" + seg(sku)})
}

// CreateOrder creates an unpaid order, reserving its stock and locking its
// coupons.
func (c *Client) CreateOrder(ctx context.Context, o NewOrder) (Order, error) {
	return decoded[Order](ctx, c, call{method: http.MethodPost, path: "/v1/orders", in: o, key: o.IdempotencyKey})
}

// Order reads an order.
func (c *Client) Order(ctx context.Context, id string) (Order, error) {
	return decoded[Order](ctx, c, call{method: http.MethodGet, path: "/v1/orders/" + seg(id)})
}

// PayParams is what a payment records.
type PayParams struct {
	PaymentID      string `json:"payment_id"`
	Amount         int64  `json:"amount"`
	IdempotencyKey string `json:"-"`
}

// Pay records an order's payment.
func (c *Client) Pay(ctx context.Context, id string, p PayParams) (Order, error) {
	return decoded[Order](ctx, c, call{method: http.MethodPost, path: "/v1/orders/" + seg(id) + "/pay", in: p, key: p.IdempotencyKey})
}

// CancelParams is what a cancellation asks.
type CancelParams struct {
	IdempotencyKey string `json:"-"`
}

// Cancel closes an unpaid order, giving back its stock and coupons.
func (c *Client) Cancel(ctx context.Context, id string, p CancelParams) (Order, error) {
	return decoded[Order](ctx, c, call{method: http.MethodPost, path: "/v1/orders/" + seg(id) + "/cancel", in: p, key: p.IdempotencyKey})
}
