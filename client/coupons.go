package client

import (
	"context"
	"net/http"
	"net/url"
	"time"
)

// Coupon is a user's coupon as the API writes it, the lazy check applied:
// an unused coupon at or past ExpiresAt reads expired.
type Coupon struct {
	ID         string `json:"id"`
	TemplateID string `json:"template_id"`
	UserID     string `json:"user_id"`
	// Status is unused, locked, used, expired or voided.
	Status    string    `json:"status"`
	ClaimedAt time.Time `json:"claimed_at"`
	ExpiresAt time.Time `json:"expires_at"`
	// OrderID is the order holding or using the coupon, "" for none.
	OrderID string `json:"order_id"`
	// LockedUntil is zero unless the coupon is locked.
	LockedUntil time.Time `json:"locked_until"`
	UpdatedAt   time.Time `json:"updated_at"`
}

// Claim claims a coupon of the template for user.
func (c *Client) Claim(ctx context.Context, userID, templateID string) (Coupon, error) {
	var out Coupon
	in := struct {
		TemplateID string `json:"template_id"`
	}{templateID}
	return out, c.do(ctx, call{method: http.MethodPost, path: "/v1/users/" + seg(userID) + "/coupons", in: in, out: &out})
}

// Wallet lists a user's coupons, of status only unless it is "". (The API
// answers a wallet whole, in one page.)
func (c *Client) Wallet(ctx context.Context, userID, status string) ([]Coupon, error) {
	return c.wallet(ctx, userID, status, url.Values{})
}

// WalletWithArchived is Wallet with the user's archived coupons too
// (?include=archived).
func (c *Client) WalletWithArchived(ctx context.Context, userID, status string) ([]Coupon, error) {
	return c.wallet(ctx, userID, status, url.Values{"include": {"archived"}})
}

// wallet lists a user's coupons of status ("" for any), asking q.
func (c *Client) wallet(ctx context.Context, userID, status string, q url.Values) ([]Coupon, error) {
	var out struct {
		Coupons []Coupon `json:"coupons"`
	}
	if status != "" {
		q.Set("status", status)
	}
	err := c.do(ctx, call{method: http.MethodGet, path: "/v1/users/" + seg(userID) + "/coupons", query: q, out: &out})
	return out.Coupons, err
}

// Coupon reads a coupon.
func (c *Client) Coupon(ctx context.Context, id string) (Coupon, error) {
	var out Coupon
	return out, c.do(ctx, call{method: http.MethodGet, path: "/v1/coupons/" + seg(id), out: &out})
}

// Lock locks a coupon for an order, for ttl (0: the server's default).
func (c *Client) Lock(ctx context.Context, id, orderID string, ttl time.Duration) (Coupon, error) {
	in := struct {
		OrderID string   `json:"order_id"`
		TTL     Duration `json:"ttl,omitzero"`
	}{orderID, Duration(ttl)}
	return c.transition(ctx, id, "lock", in)
}

// Unlock gives back a coupon the order locked.
func (c *Client) Unlock(ctx context.Context, id, orderID string) (Coupon, error) {
	return c.transition(ctx, id, "unlock", orderBody{orderID})
}

// Redeem uses a coupon for an order.
func (c *Client) Redeem(ctx context.Context, id, orderID string) (Coupon, error) {
	return c.transition(ctx, id, "redeem", orderBody{orderID})
}

// Refund gives back a coupon the order used.
func (c *Client) Refund(ctx context.Context, id, orderID string) (Coupon, error) {
	return c.transition(ctx, id, "refund", orderBody{orderID})
}

// Void voids an unused coupon, giving reason.
func (c *Client) Void(ctx context.Context, id, reason string) (Coupon, error) {
	in := struct {
		Reason string `json:"reason,omitempty"`
	}{reason}
	return c.transition(ctx, id, "void", in)
}

// orderBody is the body of unlock, redeem and refund.
type orderBody struct {
	OrderID string `json:"order_id"`
}

// transition posts body to a coupon's action.
func (c *Client) transition(ctx context.Context, id, action string, body any) (Coupon, error) {
	var out Coupon
	return out, c.do(ctx, call{method: http.MethodPost, path: "/v1/coupons/" + seg(id) + "/" + action, in: body, out: &out})
}
