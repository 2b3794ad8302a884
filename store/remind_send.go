package store

import (
	"time"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/remind"
	"github.com/lapsehq/lapse/storetype"
)

// sendDueIn sends, drops or holds back, in t, the due reminders
// RemindersDue read, and returns the due times of those it did not hold
// back.
func sendDueIn(t *txn, due []driver.PlannedReminder, now time.Time) ([]time.Time, error) {
	var done []time.Time
	for _, r := range due {
		sent, err := t.sendReminder(r, now)
		if err != nil {
			return nil, err
		}
		if sent {
			done = append(done, r.Due)
		}
	}
	return done, nil
}

// sendReminder sends or drops one due reminder, or holds it back to the
// end of the quiet hours now falls in; done is false if it held it back.
func (t *txn) sendReminder(r driver.PlannedReminder, now time.Time) (done bool, err error) {
	u, err := t.user(r.UserID)
	if err != nil {
		return false, err
	}
	kept, soon, leftOut, err := t.reminderCoupons(r.ID, now)
	if err != nil {
		return false, err
	}
	finished := driver.FinishedReminder{ID: r.ID, Status: driver.ReminderDropped, At: now}
	if len(kept) == 0 {
		finished.Reason = remind.DropEmpty
		return true, t.finishReminder(finished, leftOut)
	}
	// Sent late (after a stop, say), it may fall in quiet hours.
	if due := t.policy.DueAt(now, time.Time(kept[0].ExpiresAt), u); due.After(now) {
		r.Due = due
		if err := t.SetReminder(t.ctx, r); err != nil {
			return false, err
		}
		return false, t.Timer(storetype.TimerRemind, due)
	}
	start, end := remind.Day(now, u)
	sent, err := t.SentBetween(t.ctx, driver.SentBetweenParams{User: u.ID, Start: start, End: end})
	if err != nil {
		return false, err
	}
	if t.policy.Capped(sent) {
		finished.Reason = remind.DropDailyCap
		return true, t.finishReminder(finished, leftOut)
	}
	var total int64
	for _, c := range kept {
		total += c.Value
		if err := t.InsertReminded(t.ctx, driver.RemindedParams{Key: driver.ReminderKey{CouponID: c.ID, Lead: r.Lead}, ReminderID: r.ID}); err != nil {
			return false, err
		}
	}
	ch := t.policy.Channel(u, total, now)
	listed := min(len(kept), MaxRemindedListed)
	data := ReminderEventData{UserID: u.ID, Channel: string(ch), Lead: FormatDuration(r.Lead), ExpiringSoon: soon,
		Coupons: kept[:listed], More: len(kept) - listed}
	if err := t.Event(ReminderEvent(data, now)); err != nil {
		return false, err
	}
	finished.Status, finished.Channel = driver.ReminderSent, ch
	return true, t.finishReminder(finished, leftOut)
}

// reminderCoupons reads a reminder's coupons as they are at now: those
// still to remind, earliest expiry first, whether the lead is the last of
// any of them, and how many were left out by reason.
func (t *txn) reminderCoupons(id int64, now time.Time) (kept []RemindedCoupon, soon bool, leftOut map[string]int, err error) {
	cs, err := t.ReminderCoupons(t.ctx, id)
	if err != nil {
		return nil, false, nil, err
	}
	for _, rc := range cs {
		c := rc.Coupon
		if why := remind.Drop(c, rc.Reminded, now); why != "" {
			count(&leftOut, why, 1)
			continue
		}
		kept = append(kept, RemindedCoupon{ID: c.ID, TemplateID: c.TemplateID, ExpiresAt: storetype.Timestamp(c.ExpiresAt), Value: rc.Value})
		soon = soon || rc.LastLead
	}
	return kept, soon, leftOut, nil
}
