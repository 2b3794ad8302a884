package store

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/remind"
	"github.com/lapsehq/lapse/storetype"
)

// plan plans c's reminders, one for each lead of tp whose crossing
// (expires_at - lead) is still ahead at now. fresh says c was just issued:
// a coupon back to unused skips the leads it is still planned in or was
// reminded of already.
func (t *txn) plan(c coupon.Coupon, tp coupon.Template, fresh bool, now time.Time) error {
	leads := t.policy.LeadsFor(tp.Reminders)
	if len(leads) == 0 {
		return nil
	}
	u, err := t.user(c.UserID)
	if err != nil {
		return err
	}
	for i, lead := range leads {
		x := c.ExpiresAt.Add(-lead)
		if !x.After(now) {
			continue
		}
		if !fresh {
			done, err := t.PlannedOrReminded(t.ctx, driver.ReminderKey{CouponID: c.ID, Lead: lead})
			if err != nil {
				return err
			}
			if done {
				continue
			}
		}
		id, err := t.joinReminder(u, lead, x, now)
		if err != nil {
			return err
		}
		it := driver.ReminderItem{CouponID: c.ID, Lead: lead, ReminderID: id, ExpiresAt: c.ExpiresAt, LastLead: i == len(leads)-1}
		if err := t.InsertReminderItem(t.ctx, it); err != nil {
			return err
		}
	}
	return nil
}

// joinReminder returns the planned reminder of u and lead that a coupon
// crossing at x joins at now: the earliest whose span stays within the
// window with x, moved earlier if x is its new first crossing, or else a
// new one.
func (t *txn) joinReminder(u remind.User, lead time.Duration, x, now time.Time) (int64, error) {
	lo, hi := t.policy.Joinable(x)
	r, err := t.JoinableReminder(t.ctx, driver.JoinableReminderParams{User: u.ID, Lead: lead, Lo: lo, Hi: hi})
	if errors.Is(err, storetype.ErrNotFound) {
		r = driver.PlannedReminder{UserID: u.ID, Lead: lead, First: x, Last: x, Due: t.policy.PlannedDue(x, lead, u, now)}
		if r.ID, err = t.InsertReminder(t.ctx, r); err != nil {
			return 0, err
		}
		t.reminders.Planned++
		return r.ID, t.Timer(storetype.TimerRemind, r.Due)
	}
	was := r.Due
	switch {
	case err != nil || (!x.Before(r.First) && !x.After(r.Last)):
		return r.ID, err
	case x.After(r.Last): // the same first crossing, the same due time
		r.Last = x
	default:
		r.First, r.Due = x, t.policy.PlannedDue(x, lead, u, now)
	}
	return r.ID, t.setSpan(r, was)
}

// setSpan stores the crossings a planned reminder spans and its due time,
// arming its timer if that moved from was.
func (t *txn) setSpan(r driver.PlannedReminder, was time.Time) error {
	if err := t.SetReminder(t.ctx, r); err != nil {
		return err
	}
	if r.Due.Equal(was) {
		return nil
	}
	return t.Timer(storetype.TimerRemind, r.Due)
}

// unplan takes coupons out of their planned reminders and re-spans each
// once; one left empty is dropped.
func (t *txn) unplan(now time.Time, couponIDs ...string) error {
	ids, err := t.UnplanCoupons(t.ctx, couponIDs)
	if err != nil {
		return err
	}
	slices.Sort(ids)
	for _, id := range slices.Compact(ids) {
		if err := t.respan(id, now); err != nil {
			return err
		}
	}
	return nil
}

// respan recomputes a planned reminder's span from the coupons it still
// lists, or drops it if it lists none.
func (t *txn) respan(id int64, now time.Time) error {
	r, err := t.Reminder(t.ctx, id)
	if err != nil {
		return err
	}
	span, err := t.ItemSpan(t.ctx, id)
	if err != nil {
		return err
	}
	if span.N == 0 {
		return t.finishReminder(driver.FinishedReminder{ID: id, Status: driver.ReminderDropped, Reason: remind.DropEmpty, At: now}, nil)
	}
	u, err := t.user(r.UserID)
	if err != nil {
		return err
	}
	was := r.Due
	r.First, r.Last = span.First.Add(-r.Lead), span.Last.Add(-r.Lead)
	r.Due = t.policy.PlannedDue(r.First, r.Lead, u, now)
	return t.setSpan(r, was)
}

// retimeReminders re-times a user's planned reminders to their profile,
// set at now.
func (t *txn) retimeReminders(u remind.User, now time.Time) error {
	rs, err := t.UserReminders(t.ctx, u.ID)
	if err != nil {
		return err
	}
	for _, r := range rs {
		due := t.policy.PlannedDue(r.First, r.Lead, u, now)
		if due.Equal(r.Due) {
			continue
		}
		r.Due = due
		if err := t.SetReminder(t.ctx, r); err != nil {
			return err
		}
		if err := t.Timer(storetype.TimerRemind, due); err != nil {
			return err
		}
	}
	return nil
}

// finishReminder marks a planned reminder sent or dropped, lets go of its
// coupons and counts it, with the coupons left out of it by reason.
func (t *txn) finishReminder(f driver.FinishedReminder, leftOut map[string]int) error {
	ok, err := t.FinishReminder(t.ctx, f)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("finish reminder %d: no longer planned", f.ID)
	}
	c := &t.reminders
	if f.Status == driver.ReminderSent {
		count(&c.Sent, f.Channel, 1)
	} else {
		count(&c.Dropped, f.Reason, 1)
	}
	for why, n := range leftOut {
		count(&c.LeftOut, why, n)
	}
	return nil
}

// count adds n to m[k], making m if need be.
func count[K comparable](m *map[K]int, k K, n int) {
	if *m == nil {
		*m = map[K]int{}
	}
	(*m)[k] += n
}

// user returns a user as the reminder policy sees them: one lapse has not
// met yet has the default profile and no activity.
func (t *txn) user(id string) (remind.User, error) {
	u, err := t.User(t.ctx, id)
	if errors.Is(err, storetype.ErrNotFound) {
		return remind.User{ID: id, Timezone: "UTC"}, nil
	}
	return u, err
}
