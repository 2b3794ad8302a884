package mysql

import (
	"database/sql"
	"time"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/storetype"
)

var _ driver.ReminderTx = (*tx)(nil)

// JoinableReminder returns the earliest planned reminder of user and lead
// whose first crossing lies in [lo, hi] and last crossing at or before
// hi; store.ErrNotFound if none.
func (t *tx) JoinableReminder(user string, lead time.Duration, lo, hi time.Time) (driver.PlannedReminder, error) {
	return sqlfile.ScanOne(t.queryRow("JoinableReminder", user, lead.Milliseconds(), lo, hi, hi), sqlfile.ScanReminder, interpret)
}

// InsertReminder stores r as planned and returns its ID.
func (t *tx) InsertReminder(r driver.PlannedReminder) (int64, error) {
	res, err := t.exec("InsertReminder", r.UserID, r.Lead.Milliseconds(), r.First, r.Last, r.Due)
	if err != nil {
		return 0, err
	}
	return res.LastInsertId()
}

// SetReminderSpan stores r's First, Last and Due, if r is still planned.
func (t *tx) SetReminderSpan(r driver.PlannedReminder) error {
	_, err := t.exec("SetReminderSpan", r.First, r.Last, r.Due, r.ID)
	return err
}

// SetReminderDue moves the due time of planned reminder id.
func (t *tx) SetReminderDue(id int64, due time.Time) error {
	_, err := t.exec("SetReminderDue", due, id)
	return err
}

// Reminder reads reminder id, whatever its state; store.ErrNotFound if
// there is none.
func (t *tx) Reminder(id int64) (driver.PlannedReminder, error) {
	return sqlfile.ScanOne(t.queryRow("GetReminder", id), sqlfile.ScanReminder, interpret)
}

// UserReminders lists a user's planned reminders, oldest first.
func (t *tx) UserReminders(user string) ([]driver.PlannedReminder, error) {
	rows, err := t.query("UserReminders", user)
	return sqlfile.Collect(rows, err, sqlfile.ScanReminder)
}

// RemindersDue lists up to p.Limit planned reminders due at or before
// p.Now of the shards of p.Leases, earliest first, and holds them until
// the transaction ends: another instance skips them.
func (t *tx) RemindersDue(p storetype.DueParams) ([]driver.PlannedReminder, error) {
	return readDue(t.ctx, t.sql, p, "DueReminderShards", "RemindersDue", sqlfile.ScanReminder, func(r driver.PlannedReminder) time.Time { return r.Due })
}

// PlannedOrReminded reports whether the pair (coupon, lead) is in a
// planned reminder or was reminded.
func (t *tx) PlannedOrReminded(couponID string, lead time.Duration) (bool, error) {
	var done bool
	ms := lead.Milliseconds()
	err := t.queryRow("PlannedOrReminded", couponID, ms, couponID, ms).Scan(&done)
	return done, err
}

// InsertReminderItem adds a coupon to a planned reminder.
func (t *tx) InsertReminderItem(it driver.ReminderItem) error {
	_, err := t.exec("InsertReminderItem", it.CouponID, it.Lead.Milliseconds(), it.ReminderID, it.ExpiresAt, it.LastLead)
	return err
}

// UnplanCoupons takes coupons out of every planned reminder and returns
// those they were in.
func (t *tx) UnplanCoupons(couponIDs []string) ([]int64, error) {
	rows, err := t.queryList("CouponReminders", len(couponIDs), listArgs(couponIDs)...)
	ids, err := sqlfile.Collect(rows, err, sqlfile.ScanInt64)
	if err != nil {
		return nil, err
	}
	_, err = t.execList("DeleteCouponItems", len(couponIDs), listArgs(couponIDs)...)
	return ids, err
}

// ItemSpan reads how many coupons planned reminder id lists and their
// earliest and latest expires_at (zero if none).
func (t *tx) ItemSpan(id int64) (n int64, first, last time.Time, err error) {
	var lo, hi sql.NullTime
	err = t.queryRow("ItemSpan", id).Scan(&n, &lo, &hi)
	return n, utc(lo), utc(hi), err
}

// ReminderCoupons reads the coupons planned reminder id lists, as they are
// now, earliest expires_at first, then by ID.
func (t *tx) ReminderCoupons(id int64) ([]driver.ReminderCoupon, error) {
	rows, err := t.query("ReminderCoupons", id)
	return sqlfile.Collect(rows, err, sqlfile.ScanReminderCoupon(scanCoupon))
}

// SentBetween counts the reminders sent to user with their done time in
// [start, end).
func (t *tx) SentBetween(user string, start, end time.Time) (int, error) {
	var n int
	err := t.queryRow("SentBetween", user, start, end).Scan(&n)
	return n, err
}

// InsertReminded records that the pair (coupon, lead) was reminded by
// reminder id; the pair's primary key refuses a second record.
func (t *tx) InsertReminded(couponID string, lead time.Duration, id int64) error {
	_, err := t.exec("InsertReminded", couponID, lead.Milliseconds(), id)
	return err
}

// FinishReminder marks planned reminder f.ID sent or dropped at f.At and
// deletes its items; false if it was no longer planned.
func (t *tx) FinishReminder(f driver.FinishedReminder) (bool, error) {
	ok, err := t.execOne("FinishReminder", f.Status, nullString(string(f.Channel)), nullString(f.Reason), f.At, f.ID)
	if err != nil || !ok {
		return false, err
	}
	_, err = t.exec("DeleteReminderItems", f.ID)
	return err == nil, err
}
