package sqlite

import (
	"context"
	"time"

	"github.com/lapsehq/lapse/remind"
	"github.com/lapsehq/lapse/store"
)

// SendDueReminders sends, drops or holds back up to p.Limit due reminders
// in one transaction.
func (s *Store) SendDueReminders(ctx context.Context, p store.DueParams) (store.Drained, error) {
	return inTx(ctx, s, func(t *tx) (store.Drained, error) {
		var d store.Drained
		rows, err := t.query("RemindersDue", ms(p.Now), p.Limit)
		if err != nil {
			return d, err
		}
		var due []dueReminder
		for rows.Next() {
			var (
				r             dueReminder
				leadMS, dueAt int64
			)
			if err := rows.Scan(&r.id, &r.userID, &leadMS, &dueAt); err != nil {
				rows.Close()
				return d, err
			}
			r.lead, r.due = time.Duration(leadMS)*time.Millisecond, at(dueAt)
			due = append(due, r)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return d, err
		}
		for _, r := range due {
			done, err := t.sendReminder(r, p.Now)
			if err != nil {
				return d, err
			}
			if done {
				d.Due = append(d.Due, r.due)
			}
		}
		d.Next, err = t.next("NextReminder")
		return d, err
	})
}

// dueReminder is a planned reminder found due.
type dueReminder struct {
	id     int64
	userID string
	lead   time.Duration
	due    time.Time
}

// sendReminder sends or drops one due reminder, or holds it back to the
// end of the quiet hours now falls in; done is false if it held it back.
func (t *tx) sendReminder(r dueReminder, now time.Time) (done bool, err error) {
	u, err := t.user(r.userID)
	if err != nil {
		return false, err
	}
	kept, soon, leftOut, err := t.reminderCoupons(r.id, now)
	if err != nil {
		return false, err
	}
	if len(kept) == 0 {
		return true, t.finishReminder(r.id, reminderDropped, "", remind.DropEmpty, leftOut, now)
	}
	// Sent late (after a stop, say), it may fall in quiet hours.
	if due := t.policy.DueAt(now, time.Time(kept[0].ExpiresAt), u); due.After(now) {
		if _, err := t.exec("SetReminderDue", ms(due), r.id); err != nil {
			return false, err
		}
		return false, t.Timer(store.TimerRemind, due)
	}
	start, end := remind.Day(now, u)
	var sent int
	if err := t.queryRow("SentToday", u.ID, ms(start), ms(end)).Scan(&sent); err != nil {
		return false, err
	}
	if t.policy.Capped(sent) {
		return true, t.finishReminder(r.id, reminderDropped, "", remind.DropDailyCap, leftOut, now)
	}
	var total int64
	for _, c := range kept {
		total += c.Value
		if _, err := t.exec("InsertReminded", c.ID, r.lead.Milliseconds(), r.id); err != nil {
			return false, err
		}
	}
	ch := t.policy.Channel(u, total, now)
	listed := min(len(kept), store.MaxRemindedListed)
	data := store.ReminderEventData{UserID: u.ID, Channel: string(ch), Lead: store.FormatDuration(r.lead), ExpiringSoon: soon,
		Coupons: kept[:listed], More: len(kept) - listed}
	if err := t.Event(store.ReminderEvent(data, now)); err != nil {
		return false, err
	}
	return true, t.finishReminder(r.id, reminderSent, ch, "", leftOut, now)
}

// reminderCoupons reads a reminder's coupons as they are at now: those
// still to remind, earliest expiry first, whether the lead is the last of
// any of them, and how many were left out by reason.
func (t *tx) reminderCoupons(id int64, now time.Time) (kept []store.RemindedCoupon, soon bool, leftOut map[string]int, err error) {
	rows, err := t.query("ReminderCoupons", id)
	if err != nil {
		return nil, false, nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var (
			value          int64
			last, reminded bool
		)
		c, err := scanCoupon(withMore{rows, []any{&value, &last, &reminded}})
		if err != nil {
			return nil, false, nil, err
		}
		if why := remind.Drop(c, reminded, now); why != "" {
			count(&leftOut, why, 1)
			continue
		}
		kept = append(kept, store.RemindedCoupon{ID: c.ID, TemplateID: c.TemplateID, ExpiresAt: store.Timestamp(c.ExpiresAt), Value: value})
		soon = soon || last
	}
	return kept, soon, leftOut, rows.Err()
}

// withMore scans a coupon row followed by more columns into more.
type withMore struct {
	row  scanner
	more []any
}

func (w withMore) Scan(dest ...any) error { return w.row.Scan(append(dest, w.more...)...) }
