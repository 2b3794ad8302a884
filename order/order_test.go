package order

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/lapsehq/lapse/coupon"
)

func TestValidateItems(t *testing.T) {
	ok := []Item{{SKU: "a", Qty: MaxQty, UnitPrice: 0}, {SKU: "b", Qty: 1, UnitPrice: MaxPrice}}
	if err := ValidateItems(ok); err != nil {
		t.Fatalf("valid items: got %v", err)
	}
	cases := []struct {
		field string
		items []Item
	}{
		{"items", nil},
		{"items[0].sku", []Item{{Qty: 1}}},
		{"items[0].sku", []Item{{SKU: " a", Qty: 1}}},
		{"items[1].sku", []Item{{SKU: "a", Qty: 1}, {SKU: strings.Repeat("s", 3000), Qty: 1}}},
		{"items[0].sku", []Item{{SKU: "z\x00", Qty: 1}}},
		{"items[1].sku", []Item{{SKU: "a", Qty: 1}, {SKU: "a", Qty: 1}}},
		{"items[0].qty", []Item{{SKU: "a", Qty: 0}}},
		{"items[0].qty", []Item{{SKU: "a", Qty: -3}}},
		{"items[0].qty", []Item{{SKU: "a", Qty: MaxQty + 1}}},
		{"items[0].unit_price", []Item{{SKU: "a", Qty: 1, UnitPrice: -1}}},
		{"items[0].unit_price", []Item{{SKU: "a", Qty: 1, UnitPrice: MaxPrice + 1}}},
		{"items", []Item{{SKU: "a", Qty: MaxQty, UnitPrice: MaxPrice}}},
	}
	for _, c := range cases {
		var inv *coupon.InvalidError
		if err := ValidateItems(c.items); !errors.As(err, &inv) || inv.Field != c.field {
			t.Fatalf("%+v: got %v, want invalid %s", c.items, err, c.field)
		}
	}
}

func TestValidateDeadline(t *testing.T) {
	now := time.Date(2026, 11, 11, 0, 0, 0, 0, time.UTC)
	if err := ValidateDeadline(now.Add(MaxTimeout), now); err != nil {
		t.Fatalf("deadline at the limit: got %v", err)
	}
	for _, d := range []time.Time{now, now.Add(-time.Second), now.Add(MaxTimeout + time.Millisecond)} {
		var inv *coupon.InvalidError
		if err := ValidateDeadline(d, now); !errors.As(err, &inv) || inv.Field != "deadline" {
			t.Fatalf("deadline %s: got %v, want invalid deadline", d.Sub(now), err)
		}
	}
}

func TestValidateCoupons(t *testing.T) {
	if err := ValidateCoupons([]string{"a", "b"}); err != nil {
		t.Fatalf("valid: got %v", err)
	}
	cases := []struct {
		field string
		ids   []string
	}{
		{"coupon_ids[1]", []string{"a", "a"}},
		{"coupon_ids[0]", []string{""}},
		{"coupon_ids[0]", []string{"   "}},
		{"coupon_ids[1]", []string{"a", "b\xff"}},
		{"coupon_ids[0]", []string{strings.Repeat("c", 129)}},
		{"coupon_ids", make([]string, MaxCoupons+1)},
	}
	for _, c := range cases {
		var inv *coupon.InvalidError
		if err := ValidateCoupons(c.ids); !errors.As(err, &inv) || inv.Field != c.field {
			t.Fatalf("%q: got %v, want invalid %s", c.ids, err, c.field)
		}
	}
}

func TestDiscountIsCappedAtTotal(t *testing.T) {
	cases := []struct {
		total  int64
		values []int64
		want   int64
	}{
		{3000, nil, 0},
		{3000, []int64{500, 700}, 1200},
		{1000, []int64{2000}, 1000},
		{1500, []int64{1<<63 - 1, 1<<63 - 1}, 1500}, // a sum that would overflow
		{1500, []int64{-700, 500}, 500},
		{0, []int64{100}, 0},
	}
	for _, c := range cases {
		if got := Discount(c.total, c.values); got != c.want {
			t.Fatalf("Discount(%d, %v): got %d, want %d", c.total, c.values, got, c.want)
		}
	}
}

func TestCheckCoupon(t *testing.T) {
	c := coupon.Coupon{UserID: "u1"}
	tp := coupon.Template{MinSpend: 1000}
	if err := CheckCoupon(0, c, tp, "u1", 1000); err != nil {
		t.Fatalf("at min_spend: got %v", err)
	}
	if err := CheckCoupon(0, c, tp, "u1", 999); err == nil {
		t.Fatalf("below min_spend: got nil error")
	}
	if err := CheckCoupon(2, c, tp, "u2", 5000); err == nil {
		t.Fatalf("another user's coupon: got nil error")
	}
}

func TestCanPayAndClose(t *testing.T) {
	deadline := time.Date(2026, 11, 11, 0, 30, 0, 0, time.UTC)
	unpaid := Order{Status: Unpaid, AmountDue: 2800, Deadline: deadline}
	before, at := deadline.Add(-time.Millisecond), deadline
	var inv *coupon.InvalidError
	if err := CanPay(unpaid, 2800, false, before); err != nil {
		t.Fatalf("pay in time: got %v", err)
	}
	if err := CanPay(unpaid, 2700, false, before); !errors.As(err, &inv) || inv.Field != "amount" {
		t.Fatalf("wrong amount: got %v, want invalid amount", err)
	}
	if err := CanPay(unpaid, 2800, false, at); !errors.Is(err, ErrClosed) {
		t.Fatalf("pay at deadline: got %v, want ErrClosed", err)
	}
	if err := CanPay(unpaid, 2800, true, at); err != nil {
		t.Fatalf("confirmed payment at deadline: got %v, want accepted", err)
	}
	if err := CanPay(Order{Status: Closed}, 0, true, before); !errors.Is(err, ErrClosed) {
		t.Fatalf("pay closed: got %v, want ErrClosed", err)
	}
	if err := CanPay(Order{Status: Paid, Deadline: deadline}, 0, false, before); !errors.Is(err, ErrInvalidState) {
		t.Fatalf("pay twice: got %v, want ErrInvalidState", err)
	}
	if err := CanClose(unpaid, ReasonTimeout, before); !errors.Is(err, ErrNotDue) {
		t.Fatalf("timeout before deadline: got %v, want ErrNotDue", err)
	}
	if err := CanClose(unpaid, ReasonTimeout, at); err != nil {
		t.Fatalf("timeout at deadline: got %v", err)
	}
	if err := CanClose(unpaid, ReasonCancelled, before); err != nil {
		t.Fatalf("cancel: got %v", err)
	}
	if err := CanClose(Order{Status: Paid}, ReasonCancelled, before); !errors.Is(err, ErrInvalidState) {
		t.Fatalf("cancel paid: got %v, want ErrInvalidState", err)
	}
}

func TestStatusNames(t *testing.T) {
	for _, s := range []Status{Unpaid, Paid, Closed} {
		got, err := ParseStatus(s.String())
		if err != nil || got != s {
			t.Fatalf("ParseStatus(%q): got (%v, %v)", s.String(), got, err)
		}
	}
	if _, err := ParseStatus("refunded"); err == nil {
		t.Fatalf("ParseStatus(refunded): got nil error")
	}
}

func TestCheckCouponDeadline(t *testing.T) {
	expires := time.Date(2026, 11, 11, 0, 0, 0, 0, time.UTC)
	c := coupon.Coupon{ExpiresAt: expires}
	cases := []struct {
		deadline time.Time
		maxLock  time.Duration
		ok       bool
	}{
		{expires.Add(-time.Hour), 30 * time.Minute, true},
		{expires.Add(30 * time.Minute), 30 * time.Minute, true},
		{expires.Add(30*time.Minute + time.Millisecond), 30 * time.Minute, false},
		{expires.Add(MaxTimeout), 0, true}, // no bound
	}
	for _, tc := range cases {
		err := CheckCouponDeadline(2, c, tc.deadline, tc.maxLock)
		var inv *coupon.InvalidError
		if tc.ok && err != nil || !tc.ok && (!errors.As(err, &inv) || inv.Field != "coupon_ids[2]") {
			t.Fatalf("deadline %s, max lock %s: got %v, want ok %v", tc.deadline, tc.maxLock, err, tc.ok)
		}
	}
}
