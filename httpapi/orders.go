package httpapi

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/lapsehq/lapse/input"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// defaultOrderTimeout is how long an order stays payable when the request
// names neither timeout nor deadline.
const defaultOrderTimeout = 30 * time.Minute

// skuJSON is a SKU's stock as the API writes it.
type skuJSON struct {
	SKU       string `json:"sku"`
	Available int64  `json:"available"`
	Reserved  int64  `json:"reserved"`
	Sold      int64  `json:"sold"`
	Buckets   int    `json:"buckets"`
}

func skuView(k storetype.SKU) skuJSON {
	return skuJSON{SKU: k.SKU, Available: k.Available, Reserved: k.Reserved, Sold: k.Sold, Buckets: k.Buckets}
}

// putSKU serves PUT /v1/skus/{sku}: PUT is idempotent by itself, so it
// takes no Idempotency-Key.
func (s *server) putSKU(w http.ResponseWriter, r *http.Request) {
	body, err := readBody(w, r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	p, err := decodeSKU(body)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	p.SKU, p.Now = r.PathValue("sku"), s.now()
	k, err := s.store.PutSKU(r.Context(), p)
	s.writeResult(w, r, err, func() any { return skuView(k) })
}

// decodeSKU returns the params of a SKU's new stock, less SKU and Now:
// "buckets", if given, is 1 to order.MaxBuckets; left out, the SKU keeps
// its count.
func decodeSKU(body []byte) (store.PutSKUParams, error) {
	req, err := decodeJSON[struct {
		Stock   *int64 `json:"stock"`
		Buckets *int   `json:"buckets"`
	}](body)
	if err != nil {
		return store.PutSKUParams{}, err
	}
	if req.Stock == nil {
		return store.PutSKUParams{}, invalid("stock", "is required")
	}
	p := store.PutSKUParams{Stock: *req.Stock}
	if req.Buckets != nil {
		if err := order.ValidateBuckets(*req.Buckets); err != nil {
			return p, err
		}
		p.Buckets = *req.Buckets
	}
	return p, nil
}

// getSKU serves GET /v1/skus/{sku}.
func (s *server) getSKU(w http.ResponseWriter, r *http.Request) {
	k, err := s.store.SKU(r.Context(), r.PathValue("sku"))
	s.writeResult(w, r, err, func() any { return skuView(k) })
}

// orderJSON is an order as the API writes it.
type orderJSON struct {
	ID          string       `json:"id"`
	UserID      string       `json:"user_id"`
	Status      string       `json:"status"`
	CloseReason *string      `json:"close_reason"`
	Items       []order.Item `json:"items"`
	CouponIDs   []string     `json:"coupon_ids"`
	Total       int64        `json:"total"`
	Discount    int64        `json:"discount"`
	AmountDue   int64        `json:"amount_due"`
	Deadline    string       `json:"deadline"`
	CreatedAt   string       `json:"created_at"`
	UpdatedAt   string       `json:"updated_at"`
}

// orderView is o as the API writes it. Orders take no lazy check: an
// unpaid order past its deadline may still turn out paid (the payment
// hook), so it reads unpaid until the engine has decided.
func orderView(o order.Order, _ time.Time) orderJSON {
	return orderJSON{
		ID: o.ID, UserID: o.UserID, Status: o.Status.String(), CloseReason: optionalString(o.CloseReason),
		Items: o.Items, CouponIDs: o.CouponIDs, Total: o.Total, Discount: o.Discount, AmountDue: o.AmountDue,
		Deadline: formatTime(o.Deadline), CreatedAt: formatTime(o.CreatedAt), UpdatedAt: formatTime(o.UpdatedAt),
	}
}

// createOrderRequest is the body of POST /v1/orders.
type createOrderRequest struct {
	UserID    string       `json:"user_id"`
	Items     []order.Item `json:"items"`
	CouponIDs []string     `json:"coupon_ids"`
	Timeout   *duration    `json:"timeout"`
	Deadline  *time.Time   `json:"deadline"`
}

// decodeCreateOrder returns the params of an order creation at now.
func decodeCreateOrder(body []byte, now time.Time) (store.CreateOrderParams, error) {
	req, err := decodeJSON[createOrderRequest](body)
	if err != nil {
		return store.CreateOrderParams{}, err
	}
	p := store.CreateOrderParams{UserID: req.UserID, Items: req.Items, CouponIDs: req.CouponIDs, Now: now,
		Deadline: now.Add(defaultOrderTimeout)}
	switch {
	case req.Timeout != nil && req.Deadline != nil:
		return p, invalid("timeout", "give timeout or deadline, not both")
	case req.Timeout != nil:
		if err := input.Duration("timeout", time.Duration(*req.Timeout)); err != nil {
			return p, err
		}
		if time.Duration(*req.Timeout) > order.MaxTimeout {
			return p, invalid("timeout", fmt.Sprintf("at most %s", order.MaxTimeout))
		}
		p.Deadline = now.Add(time.Duration(*req.Timeout))
	case req.Deadline != nil:
		p.Deadline = truncate(*req.Deadline)
	}
	return p, nil
}

// createOrder serves POST /v1/orders.
func (s *server) createOrder(w http.ResponseWriter, r *http.Request) {
	mutateDecoded(s, w, r, http.StatusCreated, decodeCreateOrder, func(ctx context.Context, p store.CreateOrderParams, idem *store.Idempotency, _ time.Time) (order.Order, error) {
		p.MaxLockTTL, p.Idem = s.maxLockTTL, idem
		return s.store.CreateOrder(ctx, p)
	}, orderView)
}

// getOrder serves GET /v1/orders/{id}.
func (s *server) getOrder(w http.ResponseWriter, r *http.Request) {
	o, err := s.store.Order(r.Context(), r.PathValue("id"))
	s.writeResult(w, r, err, func() any { return orderView(o, s.now()) })
}

// payRequest is the body of POST /v1/orders/{id}/pay.
type payRequest struct {
	PaymentID string `json:"payment_id"`
	Amount    *int64 `json:"amount"`
}

// decodePay returns the params of a payment, less OrderID and Now.
func decodePay(body []byte) (store.PayOrderParams, error) {
	req, err := decodeJSON[payRequest](body)
	if err != nil {
		return store.PayOrderParams{}, err
	}
	if req.Amount == nil {
		return store.PayOrderParams{}, invalid("amount", "is required")
	}
	return store.PayOrderParams{PaymentID: req.PaymentID, Amount: *req.Amount}, nil
}

// payOrder serves POST /v1/orders/{id}/pay.
func (s *server) payOrder(w http.ResponseWriter, r *http.Request) {
	mutateDecoded(s, w, r, http.StatusOK, untimed(decodePay), func(ctx context.Context, p store.PayOrderParams, idem *store.Idempotency, now time.Time) (order.Order, error) {
		p.OrderID, p.Now, p.Idem = r.PathValue("id"), now, idem
		return s.store.PayOrder(ctx, p)
	}, orderView)
}

// cancelOrder serves POST /v1/orders/{id}/cancel.
func (s *server) cancelOrder(w http.ResponseWriter, r *http.Request) {
	mutate(s, w, r, http.StatusOK, func(ctx context.Context, idem *store.Idempotency, body []byte, now time.Time) (order.Order, error) {
		if _, err := decodeJSON[struct{}](body); err != nil {
			return order.Order{}, err
		}
		return s.store.CloseOrder(ctx, store.CloseOrderParams{OrderID: r.PathValue("id"), Reason: order.ReasonCancelled, Now: now, Idem: idem})
	}, orderView)
}
