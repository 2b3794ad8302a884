package sqlite

import (
	"database/sql"
	"time"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/storetype"
)

// The rows of planned reminders, one statement each; the rules are
// store's.

// JoinableReminder returns the earliest planned reminder of user and lead
// a coupon crossing within [lo, hi] joins.
func (t *tx) JoinableReminder(user string, lead time.Duration, lo, hi time.Time) (driver.PlannedReminder, error) {
	r := driver.PlannedReminder{UserID: user, Lead: lead}
	var first, last, due int64
	err := t.queryRow("JoinableReminder", user, lead.Milliseconds(), ms(lo), ms(hi)).Scan(&r.ID, &first, &last, &due)
	r.First, r.Last, r.Due = at(first), at(last), at(due)
	return r, interpret(err)
}

// InsertReminder stores r as planned and returns its ID.
func (t *tx) InsertReminder(r driver.PlannedReminder) (int64, error) {
	return sqlfile.ScanInt64(t.queryRow("InsertReminder", r.UserID, r.Lead.Milliseconds(), ms(r.First), ms(r.Last), ms(r.Due)))
}

// SetReminderSpan stores r's span and due time.
func (t *tx) SetReminderSpan(r driver.PlannedReminder) error {
	_, err := t.exec("SetReminderSpan", ms(r.First), ms(r.Last), ms(r.Due), r.ID)
	return err
}

// SetReminderDue moves a planned reminder's due time.
func (t *tx) SetReminderDue(id int64, due time.Time) error {
	_, err := t.exec("SetReminderDue", ms(due), id)
	return err
}

// Reminder reads one reminder.
func (t *tx) Reminder(id int64) (driver.PlannedReminder, error) {
	rs, err := t.reminders("GetReminder", id)
	if err != nil || len(rs) == 0 {
		return driver.PlannedReminder{}, orNotFound(err)
	}
	return rs[0], nil
}

// UserReminders lists a user's planned reminders.
func (t *tx) UserReminders(user string) ([]driver.PlannedReminder, error) {
	return t.reminders("UserReminders", user)
}

// RemindersDue lists up to p.Limit planned reminders of p's shards due at
// p.Now, earliest first.
func (t *tx) RemindersDue(p storetype.DueParams) ([]driver.PlannedReminder, error) {
	return t.reminders("RemindersDue", ms(p.Now), p.Limit, shardFilter(p.Leases))
}

// reminders runs a query of planned reminders (id, user, lead, first,
// last, due).
func (t *tx) reminders(name string, args ...any) ([]driver.PlannedReminder, error) {
	rows, err := t.query(name, args...)
	return sqlfile.Collect(rows, err, func(row sqlfile.Scanner) (driver.PlannedReminder, error) {
		var (
			r                      driver.PlannedReminder
			lead, first, last, due int64
		)
		err := row.Scan(&r.ID, &r.UserID, &lead, &first, &last, &due)
		r.Lead, r.First, r.Last, r.Due = time.Duration(lead)*time.Millisecond, at(first), at(last), at(due)
		return r, err
	})
}

// PlannedOrReminded reports whether (coupon, lead) is planned or was
// reminded.
func (t *tx) PlannedOrReminded(couponID string, lead time.Duration) (bool, error) {
	var done bool
	err := t.queryRow("PlannedOrReminded", couponID, lead.Milliseconds()).Scan(&done)
	return done, err
}

// InsertReminderItem adds a coupon to a planned reminder.
func (t *tx) InsertReminderItem(it driver.ReminderItem) error {
	_, err := t.exec("InsertReminderItem", it.CouponID, it.Lead.Milliseconds(), it.ReminderID, ms(it.ExpiresAt), it.LastLead)
	return err
}

// UnplanCoupons takes coupons out of their planned reminders and returns
// those they were in.
func (t *tx) UnplanCoupons(couponIDs []string) ([]int64, error) {
	rows, err := t.queryList("UnplanCoupons", couponIDs)
	return sqlfile.Collect(rows, err, sqlfile.ScanInt64)
}

// ItemSpan reads how many coupons a reminder lists and their expiry span.
func (t *tx) ItemSpan(id int64) (int64, time.Time, time.Time, error) {
	var (
		n           int64
		first, last sql.NullInt64
	)
	err := t.queryRow("ItemSpan", id).Scan(&n, &first, &last)
	return n, atNull(first), atNull(last), err
}

// ReminderCoupons reads a reminder's coupons as they are now.
func (t *tx) ReminderCoupons(id int64) ([]driver.ReminderCoupon, error) {
	rows, err := t.query("ReminderCoupons", id)
	return sqlfile.Collect(rows, err, sqlfile.ScanReminderCoupon(scanCoupon))
}

// SentBetween counts the reminders sent to user in [start, end).
func (t *tx) SentBetween(user string, start, end time.Time) (int, error) {
	var n int
	err := t.queryRow("SentToday", user, ms(start), ms(end)).Scan(&n)
	return n, err
}

// InsertReminded records that (coupon, lead) was reminded.
func (t *tx) InsertReminded(couponID string, lead time.Duration, id int64) error {
	_, err := t.exec("InsertReminded", couponID, lead.Milliseconds(), id)
	return err
}

// FinishReminder marks a planned reminder sent or dropped and deletes its
// items.
func (t *tx) FinishReminder(f driver.FinishedReminder) (bool, error) {
	ok, err := t.execOne("FinishReminder", f.ID, f.Status, nullString(string(f.Channel)), nullString(f.Reason), ms(f.At))
	if err != nil || !ok {
		return ok, err
	}
	_, err = t.exec("DeleteReminderItems", f.ID)
	return true, err
}

// orNotFound is err, or store.ErrNotFound for none.
func orNotFound(err error) error {
	if err != nil {
		return err
	}
	return storetype.ErrNotFound
}
