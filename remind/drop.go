package remind

import (
	"time"

	"github.com/lapsehq/lapse/coupon"
)

// Why a reminder is not sent.
const (
	// DropEmpty: none of its coupons is still unused and unexpired.
	DropEmpty = "empty"
	// DropDailyCap: the user had their DailyCap of reminders today.
	DropDailyCap = "daily_cap"
)

// DropReminded is why a coupon is left out of a reminder whose lead it was
// already reminded of.
const DropReminded = "reminded"

// Drop says why a coupon planned into a reminder is left out of it when
// it is sent at now: the state it left unused for ("used", "locked",
// "voided", "expired", unused past expires_at reading "expired"), or
// DropReminded. "" keeps it.
func Drop(c coupon.Coupon, reminded bool, now time.Time) string {
	st := c.View(now).Status
	switch {
	case st != coupon.Unused:
		return st.String()
	case reminded:
		return DropReminded
	}
	return ""
}
