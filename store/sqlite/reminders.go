package sqlite

import (
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/remind"
	"github.com/lapsehq/lapse/store"
)

// The states a planned reminder ends in.
const (
	reminderSent    = "sent"
	reminderDropped = "dropped"
)

// Plan plans c's reminders, one for each lead of tp whose crossing
// (expires_at - lead) is still ahead at now. fresh says c was just issued:
// a coupon back to unused skips the leads it is still planned in or was
// reminded of already.
func (t *tx) Plan(c coupon.Coupon, tp coupon.Template, fresh bool, now time.Time) error {
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
			var done bool
			if err := t.queryRow("PlannedOrReminded", c.ID, lead.Milliseconds()).Scan(&done); err != nil {
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
		last := i == len(leads)-1
		if _, err := t.exec("InsertReminderItem", c.ID, lead.Milliseconds(), id, ms(c.ExpiresAt), last); err != nil {
			return err
		}
	}
	return nil
}

// joinReminder returns the planned reminder of u and lead that a coupon
// crossing at x joins at now: the earliest whose span stays within the
// window with x, moved earlier if x is its new first crossing, or else a
// new one.
func (t *tx) joinReminder(u remind.User, lead time.Duration, x, now time.Time) (int64, error) {
	lo, hi := t.policy.Joinable(x)
	var id, first, last, due int64
	err := t.queryRow("JoinableReminder", u.ID, lead.Milliseconds(), ms(lo), ms(hi)).Scan(&id, &first, &last, &due)
	if errors.Is(err, sql.ErrNoRows) {
		due := t.policy.PlannedDue(x, lead, u, now)
		if err := t.queryRow("InsertReminder", u.ID, lead.Milliseconds(), ms(x), ms(x), ms(due)).Scan(&id); err != nil {
			return 0, err
		}
		t.reminders.Planned++
		return id, t.Timer(store.TimerRemind, due)
	}
	switch {
	case err != nil || (ms(x) >= first && ms(x) <= last):
		return id, err
	case ms(x) > last: // the same first crossing, the same due time
		return id, t.setSpan(id, at(first), x, at(due), at(due))
	}
	return id, t.setSpan(id, x, at(last), t.policy.PlannedDue(x, lead, u, now), at(due))
}

// setSpan stores the crossings a planned reminder spans and its due time,
// arming its timer if that moved from was.
func (t *tx) setSpan(id int64, first, last, due, was time.Time) error {
	if _, err := t.exec("SetReminderSpan", ms(first), ms(last), ms(due), id); err != nil {
		return err
	}
	if due.Equal(was) {
		return nil
	}
	return t.Timer(store.TimerRemind, due)
}

// Unplan takes a coupon out of its planned reminders and re-spans each;
// one left empty is dropped.
func (t *tx) Unplan(couponID string, now time.Time) error {
	rows, err := t.query("CouponReminders", couponID)
	if err != nil {
		return err
	}
	ids, err := scanInts(rows)
	if err != nil {
		return err
	}
	if _, err := t.exec("DeleteCouponItems", couponID); err != nil {
		return err
	}
	for _, id := range ids {
		if err := t.respan(id, now); err != nil {
			return err
		}
	}
	return nil
}

// respan recomputes a planned reminder's span from the coupons it still
// lists, or drops it if it lists none.
func (t *tx) respan(id int64, now time.Time) error {
	var (
		userID         string
		leadMS, due, n int64
		minExp, maxExp sql.NullInt64
	)
	if err := t.queryRow("GetReminder", id).Scan(&userID, &leadMS, &due); err != nil {
		return err
	}
	if err := t.queryRow("ItemSpan", id).Scan(&n, &minExp, &maxExp); err != nil {
		return err
	}
	if n == 0 {
		return t.finishReminder(id, reminderDropped, "", remind.DropEmpty, nil, now)
	}
	u, err := t.user(userID)
	if err != nil {
		return err
	}
	lead := time.Duration(leadMS) * time.Millisecond
	first := at(minExp.Int64).Add(-lead)
	return t.setSpan(id, first, at(maxExp.Int64).Add(-lead), t.policy.PlannedDue(first, lead, u, now), at(due))
}

// retimeReminders re-times a user's planned reminders to their profile,
// set at now.
func (t *tx) retimeReminders(u remind.User, now time.Time) error {
	rows, err := t.query("UserReminders", u.ID)
	if err != nil {
		return err
	}
	type planned struct{ id, lead, first, due int64 }
	var ps []planned
	for rows.Next() {
		var p planned
		if err := rows.Scan(&p.id, &p.lead, &p.first, &p.due); err != nil {
			rows.Close()
			return err
		}
		ps = append(ps, p)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, p := range ps {
		due := t.policy.PlannedDue(at(p.first), time.Duration(p.lead)*time.Millisecond, u, now)
		if ms(due) == p.due {
			continue
		}
		if _, err := t.exec("SetReminderDue", ms(due), p.id); err != nil {
			return err
		}
		if err := t.Timer(store.TimerRemind, due); err != nil {
			return err
		}
	}
	return nil
}

// finishReminder marks a planned reminder sent (on channel) or dropped
// (for reason), lets go of its coupons and counts it, with the coupons
// left out of it by reason.
func (t *tx) finishReminder(id int64, status string, channel remind.Channel, reason string, leftOut map[string]int, now time.Time) error {
	ok, err := t.execOne("FinishReminder", id, status, nullString(string(channel)), nullString(reason), ms(now))
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("finish reminder %d: no longer planned", id)
	}
	if _, err := t.exec("DeleteReminderItems", id); err != nil {
		return err
	}
	c := &t.reminders
	if status == reminderSent {
		count(&c.Sent, channel, 1)
	} else {
		count(&c.Dropped, reason, 1)
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

func scanInts(rows *sql.Rows) ([]int64, error) {
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var v int64
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}
