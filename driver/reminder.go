package driver

import (
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/remind"
)

// PlannedReminder is one reminder of a user and lead: First and Last are
// the earliest and latest crossing (expires_at - lead) of its coupons,
// Due is First moved by the quiet hours.
type PlannedReminder struct {
	ID     int64
	UserID string
	Lead   time.Duration
	First  time.Time
	Last   time.Time
	Due    time.Time
}

// ReminderItem is one coupon of a planned reminder. LastLead says Lead is
// the shortest of the coupon's template.
type ReminderItem struct {
	CouponID   string
	Lead       time.Duration
	ReminderID int64
	ExpiresAt  time.Time
	LastLead   bool
}

// ReminderCoupon is one coupon a planned reminder lists, as it is now:
// with its template's value, whether the reminder's lead is the
// template's last, and whether the pair was reminded already.
type ReminderCoupon struct {
	Coupon   coupon.Coupon
	Value    int64
	LastLead bool
	Reminded bool
}

// The states a planned reminder ends in.
const (
	ReminderSent    = "sent"
	ReminderDropped = "dropped"
)

// FinishedReminder is how a planned reminder ended: Status ReminderSent on
// Channel, or ReminderDropped for Reason.
type FinishedReminder struct {
	ID      int64
	Status  string
	Channel remind.Channel
	Reason  string
	At      time.Time
}
