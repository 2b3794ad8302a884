package postgres

import (
	"context"
	"time"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/storetype"
)

// JoinableReminder returns the earliest planned reminder of p.User and
// p.Lead whose first crossing lies in [p.Lo, p.Hi] and last crossing at
// or before p.Hi; storetype.ErrNotFound if none.
func (e *executor) JoinableReminder(ctx context.Context, p driver.JoinableReminderParams) (driver.PlannedReminder, error) {
	return sqlfile.ScanOne(e.queryRow(ctx, "JoinableReminder", p.User, p.Lead.Milliseconds(), p.Lo, p.Hi), sqlfile.ScanReminder, interpret)
}

// InsertReminder stores r as planned and returns its ID.
func (e *executor) InsertReminder(ctx context.Context, r driver.PlannedReminder) (int64, error) {
	return sqlfile.ScanInt64(e.queryRow(ctx, "InsertReminder", r.UserID, r.Lead.Milliseconds(), r.First, r.Last, r.Due))
}

// SetReminder stores r's First, Last and Due, if r is still planned.
func (e *executor) SetReminder(ctx context.Context, r driver.PlannedReminder) error {
	_, err := e.exec(ctx, "SetReminder", r.First, r.Last, r.Due, r.ID)
	return err
}

// Reminder reads reminder id, whatever its state; storetype.ErrNotFound
// if there is none.
func (e *executor) Reminder(ctx context.Context, id int64) (driver.PlannedReminder, error) {
	return sqlfile.ScanOne(e.queryRow(ctx, "GetReminder", id), sqlfile.ScanReminder, interpret)
}

// UserReminders lists a user's planned reminders, oldest first.
func (e *executor) UserReminders(ctx context.Context, user string) ([]driver.PlannedReminder, error) {
	return e.reminders(ctx, "UserReminders", user)
}

// RemindersDue lists up to p.Limit planned reminders due at or before
// p.Now of the shards of p.Leases, and holds them until the transaction
// ends: another instance skips them (see claimRanges).
func (e *executor) RemindersDue(ctx context.Context, p storetype.DueParams) ([]driver.PlannedReminder, error) {
	return claimRanges(p, func(r driver.PlannedReminder) time.Time { return r.Due }, func(limit, lo, hi int) ([]driver.PlannedReminder, error) {
		return e.reminders(ctx, "RemindersDue", p.Now, limit, lo, hi)
	})
}

// PlannedOrReminded reports whether the pair (coupon, lead) is in a
// planned reminder or was reminded.
func (e *executor) PlannedOrReminded(ctx context.Context, k driver.ReminderKey) (bool, error) {
	var done bool
	err := e.queryRow(ctx, "PlannedOrReminded", k.CouponID, k.Lead.Milliseconds()).Scan(&done)
	return done, err
}

// InsertReminderItem adds a coupon to a planned reminder.
func (e *executor) InsertReminderItem(ctx context.Context, it driver.ReminderItem) error {
	_, err := e.exec(ctx, "InsertReminderItem", it.CouponID, it.Lead.Milliseconds(), it.ReminderID, it.ExpiresAt, it.LastLead)
	return err
}

// UnplanCoupons takes coupons out of every planned reminder and returns
// those they were in.
func (e *executor) UnplanCoupons(ctx context.Context, couponIDs []string) ([]int64, error) {
	rows, err := e.query(ctx, "UnplanCoupons", couponIDs)
	return sqlfile.Collect(rows, err, sqlfile.ScanInt64)
}

// ItemSpan reads how many coupons planned reminder id lists and their
// earliest and latest expires_at (zero if none).
func (e *executor) ItemSpan(ctx context.Context, id int64) (driver.ItemSpan, error) {
	var (
		s      driver.ItemSpan
		lo, hi *time.Time
	)
	err := e.queryRow(ctx, "ItemSpan", id).Scan(&s.N, &lo, &hi)
	s.First, s.Last = orZero(lo), orZero(hi)
	return s, err
}

// SentBetween counts the reminders sent to p.User with their done time in
// [p.Start, p.End).
func (e *executor) SentBetween(ctx context.Context, p driver.SentBetweenParams) (int, error) {
	var n int
	err := e.queryRow(ctx, "SentBetween", p.User, p.Start, p.End).Scan(&n)
	return n, err
}

// FinishReminder marks planned reminder f.ID sent or dropped at f.At and
// deletes its items; false if it was no longer planned.
func (e *executor) FinishReminder(ctx context.Context, f driver.FinishedReminder) (bool, error) {
	ok, err := e.execOne(ctx, "FinishReminder", f.ID, f.Status, nullString(string(f.Channel)), nullString(f.Reason), f.At)
	if err != nil || !ok {
		return false, err
	}
	_, err = e.exec(ctx, "DeleteReminderItems", f.ID)
	return err == nil, err
}

// reminders runs a query listing reminders.
func (e *executor) reminders(ctx context.Context, name string, args ...any) ([]driver.PlannedReminder, error) {
	rows, err := e.query(ctx, name, args...)
	return sqlfile.Collect(rows, err, sqlfile.ScanReminder)
}
