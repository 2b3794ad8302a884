package order

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Status is where an order is.
type Status uint8

// The order states. The zero value is not a state.
const (
	// Unpaid: created, stock reserved and coupons locked, until Deadline.
	Unpaid Status = iota + 1
	// Paid: stock sold and coupons used. Terminal.
	Paid
	// Closed: cancelled, or not paid by Deadline; stock and coupons given
	// back. Terminal.
	Closed
)

var statusNames = [...]string{Unpaid: "unpaid", Paid: "paid", Closed: "closed"}

// String returns the status's name as the API and the store write it.
func (s Status) String() string {
	if s >= Unpaid && s <= Closed {
		return statusNames[s]
	}
	return fmt.Sprintf("Status(%d)", uint8(s))
}

// ParseStatus is the inverse of String.
func ParseStatus(name string) (Status, error) {
	for s := Unpaid; s <= Closed; s++ {
		if statusNames[s] == name {
			return s, nil
		}
	}
	return 0, fmt.Errorf("unknown order status %q", name)
}

// Why an order closed.
const (
	ReasonTimeout   = "timeout"
	ReasonCancelled = "cancelled"
)

// Errors an order action is refused with.
var (
	// ErrClosed: payment for an order that is closed, or past its deadline.
	ErrClosed = errors.New("order closed")
	// ErrInvalidState: the action is not allowed from the order's state.
	ErrInvalidState = errors.New("invalid order state")
	// ErrInsufficientStock: an item asks for more than is available.
	ErrInsufficientStock = errors.New("insufficient stock")
	// ErrNotDue: a timeout close asked before the deadline.
	ErrNotDue = errors.New("order not due")
)

// Item is one line of an order.
type Item struct {
	SKU       string `json:"sku"`
	Qty       int64  `json:"qty"`
	UnitPrice int64  `json:"unit_price"` // minor units
}

// BySKU returns items sorted by SKU: the order in which a store takes their
// stock, so that two orders never wait on each other's rows.
func BySKU(items []Item) []Item {
	out := slices.Clone(items)
	slices.SortFunc(out, func(a, b Item) int { return strings.Compare(a.SKU, b.SKU) })
	return out
}

// Order is one user's order.
type Order struct {
	ID          string
	UserID      string
	Status      Status
	CloseReason string // ReasonTimeout or ReasonCancelled once Closed
	Items       []Item
	CouponIDs   []string
	Total       int64
	Discount    int64
	AmountDue   int64
	Deadline    time.Time
	PaymentID   string
	CreatedAt   time.Time
	UpdatedAt   time.Time
	Version     int64
}

// Total sums the items' prices.
func Total(items []Item) int64 {
	var t int64
	for _, it := range items {
		t += it.Qty * it.UnitPrice
	}
	return t
}

// Discount is what coupons worth values take off total: their sum, capped
// at the total so that nothing is ever paid out, and never negative. The
// sum saturates rather than overflows, whatever the values.
func Discount(total int64, values []int64) int64 {
	var d int64
	for _, v := range values {
		if v > 0 {
			d += min(v, total-d) // d <= total, so this never passes it
		}
	}
	return max(d, 0)
}
