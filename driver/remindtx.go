package driver

import (
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/remind"
	"github.com/lapsehq/lapse/storetype"
)

// ReminderTx is what the reminder rules need of a write transaction: the
// rows of users, planned reminders, their coupons (items) and the
// (coupon, lead) pairs reminded, each method one statement of the
// backend's SQL. The rules themselves (which leads, which reminder a
// coupon joins, when one is due, what is sent on which channel) are the
// service layer's. A planned reminder belongs to the shard of its user.
type ReminderTx interface {
	// User reads a user; ErrNotFound if lapse has not met them.
	User(id string) (remind.User, error)
	// PutUser stores u's timezone and channels, keeping their last
	// activity, and returns the user as stored.
	PutUser(u remind.User) (remind.User, error)
	// TouchUser records that a user acted at now, creating them with the
	// default profile (timezone UTC, no channels) if new; a user's last
	// activity never moves back.
	TouchUser(id string, now time.Time) error

	// JoinableReminder returns the earliest planned reminder of user and
	// lead whose first crossing lies in [lo, hi] and last crossing at or
	// before hi; ErrNotFound if none.
	JoinableReminder(user string, lead time.Duration, lo, hi time.Time) (PlannedReminder, error)
	// InsertReminder stores r (its ID unset) as planned and returns its ID.
	InsertReminder(r PlannedReminder) (int64, error)
	// SetReminderSpan stores r's First, Last and Due, if r is still
	// planned.
	SetReminderSpan(r PlannedReminder) error
	// SetReminderDue moves the due time of planned reminder id.
	SetReminderDue(id int64, due time.Time) error
	// Reminder reads reminder id (its First and Last may be unset).
	Reminder(id int64) (PlannedReminder, error)
	// UserReminders lists a user's planned reminders.
	UserReminders(user string) ([]PlannedReminder, error)
	// RemindersDue lists up to p.Limit planned reminders due at or before
	// p.Now, of the shards of p.Leases (all if none), earliest first,
	// holding them until the transaction ends where the backend has row
	// locks (another instance skips them or waits).
	RemindersDue(p storetype.DueParams) ([]PlannedReminder, error)

	// PlannedOrReminded reports whether the pair (coupon, lead) is in a
	// planned reminder or was reminded.
	PlannedOrReminded(couponID string, lead time.Duration) (bool, error)
	// InsertReminderItem adds a coupon to a planned reminder.
	InsertReminderItem(it ReminderItem) error
	// UnplanCoupons takes the listed coupons out of every planned
	// reminder in one statement and returns those they were in (in any
	// order, a reminder once per coupon).
	UnplanCoupons(couponIDs []string) ([]int64, error)
	// ItemSpan reads how many coupons planned reminder id lists and
	// their earliest and latest expires_at (zero if none).
	ItemSpan(id int64) (n int64, first, last time.Time, err error)
	// ReminderCoupons reads the coupons planned reminder id lists, as
	// they are now, earliest expires_at first, then by ID.
	ReminderCoupons(id int64) ([]ReminderCoupon, error)

	// SentBetween counts the reminders sent to user with their done time
	// in [start, end).
	SentBetween(user string, start, end time.Time) (int, error)
	// InsertReminded records that the pair (coupon, lead) was reminded by
	// reminder id; the pair's key refuses a second record (an error).
	InsertReminded(couponID string, lead time.Duration, id int64) error
	// FinishReminder marks planned reminder f.ID sent or dropped at f.At
	// and deletes its items; false if it was no longer planned.
	FinishReminder(f FinishedReminder) (bool, error)
}

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
