package store

import (
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/remind"
	"github.com/lapsehq/lapse/storetype"
)

// EventReminderDue is the event of a reminder sent; its subject is the
// user reminded.
const EventReminderDue = "reminder.due"

// PutUserParams are the inputs of PutUser: the user's ID, timezone and
// channels (their last activity is not the caller's to set), and when.
type PutUserParams struct {
	User remind.User
	Now  time.Time
}

// ReminderEventData is the data of a reminder.due event.
type ReminderEventData struct {
	UserID  string `json:"user_id"`
	Channel string `json:"channel"`
	// Lead is the lead time the coupons cross, as a duration string.
	Lead string `json:"lead"`
	// ExpiringSoon: the lead is the last (shortest) of a listed coupon's
	// template, so a marketing system may offer a win-back.
	ExpiringSoon bool `json:"expiring_soon"`
	// Coupons are listed earliest expiry first, then by ID: the first
	// MaxRemindedListed of those the reminder is about.
	Coupons []RemindedCoupon `json:"coupons"`
	// More counts the coupons the reminder is about past those listed.
	More int `json:"more,omitempty"`
}

// MaxRemindedListed is the most coupons a reminder.due event lists, so
// that its data stay small however many coupons a user holds.
const MaxRemindedListed = 100

// RemindedCoupon is one coupon a reminder lists.
type RemindedCoupon struct {
	ID         string              `json:"id"`
	TemplateID string              `json:"template_id"`
	ExpiresAt  storetype.Timestamp `json:"expires_at"`
	Value      int64               `json:"value"`
}

// ReminderEvent builds the event of a reminder sent at at.
func ReminderEvent(d ReminderEventData, at time.Time) storetype.Event {
	return storetype.Event{ID: NewID("evt", at), Type: EventReminderDue, Subject: d.UserID, Time: at, Data: mustJSON(d)}
}

// ReminderCounts is what one commit did to reminders, for metrics. Its
// maps are nil until counted in.
type ReminderCounts struct {
	// Planned counts reminders created.
	Planned int
	// Sent counts reminders sent, by channel.
	Sent map[remind.Channel]int
	// Dropped counts reminders not sent, by reason (remind.DropEmpty,
	// remind.DropDailyCap).
	Dropped map[string]int
	// LeftOut counts coupons left out of the reminders they were planned
	// in, by reason (see remind.Drop).
	LeftOut map[string]int
}

// Any reports whether c counts anything.
func (c ReminderCounts) Any() bool {
	return c.Planned > 0 || len(c.Sent) > 0 || len(c.Dropped) > 0 || len(c.LeftOut) > 0
}

// replan keeps a coupon's reminders in step with the state it just moved
// to: planned again when it comes back to unused, taken out of its
// reminders when voided. Other states are sorted out when a reminder is
// sent.
func (t *txn) replan(c coupon.Coupon, now time.Time) error {
	switch c.Status {
	case coupon.Unused:
		tp, err := t.Template(t.ctx, c.TemplateID)
		if err != nil {
			return err
		}
		return t.plan(c, tp, false, now)
	case coupon.Voided:
		return t.unplan(now, c.ID)
	}
	return nil
}
