package client

import (
	"context"
	"iter"
	"net/http"
	"time"
)

// Coupon is a user's coupon as the API writes it, the lazy check applied:
// an unused coupon at or past ExpiresAt reads expired.
type Coupon struct {
	ID         string `json:"id"`
	TemplateID string `json:"template_id"`
	UserID     string `json:"user_id"`
	// Status is unused, locked, used, expired or voided (CouponUnused…).
	Status    string    `json:"status"`
	ClaimedAt time.Time `json:"claimed_at"`
	ExpiresAt time.Time `json:"expires_at"`
	// OrderID is the order holding or using the coupon, "" for none.
	OrderID string `json:"order_id"`
	// LockedUntil is zero unless the coupon is locked.
	LockedUntil time.Time `json:"locked_until"`
	UpdatedAt   time.Time `json:"updated_at"`
}

// ClaimParams is what a claim asks.
type ClaimParams struct {
	TemplateID string `json:"template_id"`
	// IdempotencyKey, if set, is the request's Idempotency-Key in place
	// of a random one: to make a call that survives the caller's own
	// restart. Every params struct of a mutation has one.
	IdempotencyKey string `json:"-"`
}

// Claim claims a coupon of p's template for user.
func (c *Client) Claim(ctx context.Context, userID string, p ClaimParams) (Coupon, error) {
	return decoded[Coupon](ctx, c, call{method: http.MethodPost, path: "/v1/users/" + seg(userID) + "/coupons", in: p, key: p.IdempotencyKey})
}

// WalletQuery is what a read of a wallet asks: which coupons, and which
// page of them.
type WalletQuery struct {
	// Status, if set, keeps the coupons in that state as the lazy check
	// reads them: unused, locked, used, expired or voided.
	Status string
	// Archived lists the user's archived coupons too, among the others
	// by ID (?include=archived).
	Archived bool
	// After is the cursor: the ID of the last coupon seen, "" for the
	// first.
	After string
	// Limit is the most coupons a page holds; 0 takes the server's
	// default.
	Limit int
}

// CouponPage is one page of GET /v1/users/{user_id}/coupons.
type CouponPage struct {
	// Coupons are by ID.
	Coupons []Coupon `json:"coupons"`
	// Next is the cursor of the next page: the last coupon's ID, or the
	// cursor asked on an empty page.
	Next string `json:"next"`
}

// WalletPage reads one page of a user's coupons, as q asks.
func (c *Client) WalletPage(ctx context.Context, userID string, q WalletQuery) (CouponPage, error) {
	query := pageQuery(q.After, q.Limit)
	if q.Status != "" {
		query.Set("status", q.Status)
	}
	if q.Archived {
		query.Set("include", "archived")
	}
	return decoded[CouponPage](ctx, c, call{method: http.MethodGet, path: "/v1/users/" + seg(userID) + "/coupons", query: query})
}

// Wallet iterates over a user's coupons as q asks, from q.After, reading
// pages of q.Limit until an empty one. It stops at the first error,
// yielding it.
func (c *Client) Wallet(ctx context.Context, userID string, q WalletQuery) iter.Seq2[Coupon, error] {
	return pages(func() ([]Coupon, error) {
		page, err := c.WalletPage(ctx, userID, q)
		q.After = page.Next
		return page.Coupons, err
	})
}

// Coupon reads a coupon.
func (c *Client) Coupon(ctx context.Context, id string) (Coupon, error) {
	return decoded[Coupon](ctx, c, call{method: http.MethodGet, path: "/v1/coupons/" + seg(id)})
}

// LockParams is what a lock asks.
type LockParams struct {
	OrderID string `json:"order_id"`
	// TTL is how long the lock lasts; 0 takes the server's default.
	TTL            Duration `json:"ttl,omitzero"`
	IdempotencyKey string   `json:"-"`
}

// Lock locks a coupon for p's order.
func (c *Client) Lock(ctx context.Context, id string, p LockParams) (Coupon, error) {
	return c.transition(ctx, id, "lock", p, p.IdempotencyKey)
}

// UnlockParams is what an unlock asks.
type UnlockParams struct {
	OrderID        string `json:"order_id"`
	IdempotencyKey string `json:"-"`
}

// Unlock gives back a coupon p's order locked.
func (c *Client) Unlock(ctx context.Context, id string, p UnlockParams) (Coupon, error) {
	return c.transition(ctx, id, "unlock", p, p.IdempotencyKey)
}

// RedeemParams is what a redemption asks.
type RedeemParams struct {
	OrderID        string `json:"order_id"`
	IdempotencyKey string `json:"-"`
}

// Redeem uses a coupon for p's order.
func (c *Client) Redeem(ctx context.Context, id string, p RedeemParams) (Coupon, error) {
	return c.transition(ctx, id, "redeem", p, p.IdempotencyKey)
}

// RefundParams is what a refund asks.
type RefundParams struct {
	OrderID        string `json:"order_id"`
	IdempotencyKey string `json:"-"`
}

// Refund gives back a coupon p's order used.
func (c *Client) Refund(ctx context.Context, id string, p RefundParams) (Coupon, error) {
	return c.transition(ctx, id, "refund", p, p.IdempotencyKey)
}

// VoidParams is what a void asks.
type VoidParams struct {
	Reason         string `json:"reason,omitempty"`
	IdempotencyKey string `json:"-"`
}

// Void voids an unused coupon.
func (c *Client) Void(ctx context.Context, id string, p VoidParams) (Coupon, error) {
	return c.transition(ctx, id, "void", p, p.IdempotencyKey)
}

// transition posts body to a coupon's action under key.
func (c *Client) transition(ctx context.Context, id, action string, body any, key string) (Coupon, error) {
	return decoded[Coupon](ctx, c, call{method: http.MethodPost, path: "/v1/coupons/" + seg(id) + "/" + action, in: body, key: key})
}
