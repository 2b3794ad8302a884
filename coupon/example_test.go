package coupon_test

import (
	"fmt"
	"time"

	"github.com/lapsehq/lapse/coupon"
)

// A coupon's fate under each action is decided by the transition table at
// the instant the action comes.
func ExampleDecide() {
	expires := time.Date(2026, 11, 11, 0, 0, 0, 0, time.UTC)
	c := coupon.Coupon{Status: coupon.Unused, ExpiresAt: expires}

	to, err := coupon.Decide(c, coupon.Lock, "order-1", expires.Add(-time.Second))
	fmt.Println(to, err)

	_, err = coupon.Decide(c, coupon.Lock, "order-1", expires)
	fmt.Println(err)

	c.Status, c.OrderID = coupon.Locked, "order-1"
	to, err = coupon.Decide(c, coupon.Redeem, "order-1", expires.Add(time.Minute))
	fmt.Println(to, err)
	// Output:
	// locked <nil>
	// coupon expired
	// used <nil>
}

// A coupon lives until the earlier of its claim plus the template's
// duration and the template's end.
func ExampleTemplate_ExpiresAt() {
	start := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	tp := coupon.Template{StartsAt: start, EndsAt: start.Add(48 * time.Hour), Duration: 72 * time.Hour}
	fmt.Println(tp.ExpiresAt(start).Format(time.RFC3339))
	// Output: 2026-11-03T00:00:00Z
}
