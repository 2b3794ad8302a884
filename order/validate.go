package order

import (
	"fmt"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/input"
)

// Limits on what one order may hold. Each item's qty × unit_price stays
// under 1e16 and a hundred of them under 1e18, so no sum overflows int64.
const (
	MaxItems   = 100
	MaxCoupons = 10
	MaxQty     = 1_000_000
	MaxPrice   = 10_000_000_000        // minor units: 1e8 in major units
	MaxTotal   = 1_000_000_000_000_000 // minor units: 1e13 in major units
	// MaxTimeout is how far ahead an order's deadline may be (presales
	// included).
	MaxTimeout = 366 * 24 * time.Hour
)

// ValidateItems reports the first item field out of range; each SKU must
// be an ID.
func ValidateItems(items []Item) error {
	if len(items) == 0 || len(items) > MaxItems {
		return &coupon.InvalidError{Field: "items", Reason: fmt.Sprintf("want 1 to %d items", MaxItems)}
	}
	seen := map[string]bool{}
	for i, it := range items {
		field := func(f string) string { return fmt.Sprintf("items[%d].%s", i, f) }
		if err := input.ID(field("sku"), it.SKU); err != nil {
			return err
		}
		switch {
		case seen[it.SKU]:
			return &coupon.InvalidError{Field: field("sku"), Reason: "listed twice"}
		case it.Qty <= 0 || it.Qty > MaxQty:
			return &coupon.InvalidError{Field: field("qty"), Reason: fmt.Sprintf("want 1 to %d", MaxQty)}
		case it.UnitPrice < 0 || it.UnitPrice > MaxPrice:
			return &coupon.InvalidError{Field: field("unit_price"), Reason: fmt.Sprintf("want 0 to %d", MaxPrice)}
		}
		seen[it.SKU] = true
	}
	if Total(items) > MaxTotal {
		return &coupon.InvalidError{Field: "items", Reason: fmt.Sprintf("total exceeds %d", int64(MaxTotal))}
	}
	return nil
}

// ValidateDeadline reports a deadline that is not after now, or too far.
func ValidateDeadline(deadline, now time.Time) error {
	switch {
	case !deadline.After(now):
		return &coupon.InvalidError{Field: "deadline", Reason: "must be in the future"}
	case deadline.Sub(now) > MaxTimeout:
		return &coupon.InvalidError{Field: "deadline", Reason: fmt.Sprintf("at most %s ahead", MaxTimeout)}
	}
	return nil
}

// ValidateCoupons reports a coupon ID that is not an ID, repeated, or in
// excess.
func ValidateCoupons(ids []string) error {
	if len(ids) > MaxCoupons {
		return &coupon.InvalidError{Field: "coupon_ids", Reason: fmt.Sprintf("at most %d", MaxCoupons)}
	}
	seen := map[string]bool{}
	for i, id := range ids {
		field := fmt.Sprintf("coupon_ids[%d]", i)
		if err := input.ID(field, id); err != nil {
			return err
		}
		if seen[id] {
			return &coupon.InvalidError{Field: field, Reason: "listed twice"}
		}
		seen[id] = true
	}
	return nil
}

// CheckCoupon reports whether c may discount an order of userID worth
// total: the coupon must be the user's and the total reach its min_spend.
// Whether it can be locked is the coupon table's to decide.
func CheckCoupon(i int, c coupon.Coupon, tp coupon.Template, userID string, total int64) error {
	field := fmt.Sprintf("coupon_ids[%d]", i)
	if c.UserID != userID {
		return &coupon.InvalidError{Field: field, Reason: "belongs to another user"}
	}
	if total < tp.MinSpend {
		return &coupon.InvalidError{Field: field, Reason: fmt.Sprintf("order total %d is below the coupon's min_spend %d", total, tp.MinSpend)}
	}
	return nil
}

// CheckCouponDeadline reports whether c may be held by an order due at
// deadline: a coupon locked in time is redeemed past its expires_at, so
// an order may hold it at most maxLock past it, as a lock may (0: no
// bound).
func CheckCouponDeadline(i int, c coupon.Coupon, deadline time.Time, maxLock time.Duration) error {
	if maxLock > 0 && deadline.After(c.ExpiresAt.Add(maxLock)) {
		return &coupon.InvalidError{Field: fmt.Sprintf("coupon_ids[%d]", i),
			Reason: fmt.Sprintf("expires more than %s before the order's deadline", maxLock)}
	}
	return nil
}

// ValidateStock reports a stock out of range.
func ValidateStock(stock int64) error {
	if stock < 0 || stock > MaxQty*1000 {
		return &coupon.InvalidError{Field: "stock", Reason: fmt.Sprintf("want 0 to %d", MaxQty*1000)}
	}
	return nil
}

// CanPay decides a payment of amount at now. A payment confirmed by the
// payment system for an order still unpaid is accepted past its deadline.
func CanPay(o Order, amount int64, confirmed bool, now time.Time) error {
	switch {
	case o.Status == Closed || (o.Status == Unpaid && !confirmed && !now.Before(o.Deadline)):
		return ErrClosed
	case o.Status != Unpaid:
		return ErrInvalidState
	case amount != o.AmountDue:
		return &coupon.InvalidError{Field: "amount", Reason: fmt.Sprintf("want amount_due %d", o.AmountDue)}
	}
	return nil
}

// CanClose decides closing o for reason at now: a cancel any time while
// unpaid, a timeout only at or after the deadline.
func CanClose(o Order, reason string, now time.Time) error {
	switch {
	case o.Status != Unpaid:
		return ErrInvalidState
	case reason == ReasonTimeout && now.Before(o.Deadline):
		return ErrNotDue
	}
	return nil
}

// MaxBuckets is the most buckets a SKU's stock may be split into (see
// ValidateBuckets).
const MaxBuckets = 64

// ValidateBuckets reports a SKU's bucket count out of range: 1 to
// MaxBuckets.
func ValidateBuckets(n int) error {
	if n < 1 || n > MaxBuckets {
		return &coupon.InvalidError{Field: "buckets", Reason: fmt.Sprintf("want 1 to %d", MaxBuckets)}
	}
	return nil
}
