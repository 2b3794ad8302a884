package sqlite

import (
	"context"
	"database/sql"
	"time"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/storetype"
)

// The rows of planned reminders, one statement each; the rules are
// the service's.

// JoinableReminder returns the earliest planned reminder of p.User and
// p.Lead a coupon crossing within [p.Lo, p.Hi] joins.
func (e *executor) JoinableReminder(ctx context.Context, p driver.JoinableReminderParams) (driver.PlannedReminder, error) {
	r := driver.PlannedReminder{UserID: p.User, Lead: p.Lead}
	var first, last, due int64
	err := e.queryRow(ctx, "JoinableReminder", p.User, p.Lead.Milliseconds(), ms(p.Lo), ms(p.Hi)).Scan(&r.ID, &first, &last, &due)
	r.First, r.Last, r.Due = at(first), at(last), at(due)
	return r, interpret(err)
}

// InsertReminder stores r as planned and returns its ID.
func (e *executor) InsertReminder(ctx context.Context, r driver.PlannedReminder) (int64, error) {
	return sqlfile.ScanInt64(e.queryRow(ctx, "InsertReminder", r.UserID, r.Lead.Milliseconds(), ms(r.First), ms(r.Last), ms(r.Due)))
}

// SetReminder stores r's span and due time, if r is still planned.
func (e *executor) SetReminder(ctx context.Context, r driver.PlannedReminder) error {
	_, err := e.exec(ctx, "SetReminder", ms(r.First), ms(r.Last), ms(r.Due), r.ID)
	return err
}

// Reminder reads one reminder.
func (e *executor) Reminder(ctx context.Context, id int64) (driver.PlannedReminder, error) {
	rs, err := e.reminders(ctx, "GetReminder", id)
	if err != nil || len(rs) == 0 {
		return driver.PlannedReminder{}, orNotFound(err)
	}
	return rs[0], nil
}

// UserReminders lists a user's planned reminders.
func (e *executor) UserReminders(ctx context.Context, user string) ([]driver.PlannedReminder, error) {
	return e.reminders(ctx, "UserReminders", user)
}

// RemindersDue lists up to p.Limit planned reminders of p's shards due at
// p.Now, earliest first.
func (e *executor) RemindersDue(ctx context.Context, p storetype.DueParams) ([]driver.PlannedReminder, error) {
	return e.reminders(ctx, "RemindersDue", ms(p.Now), p.Limit, shardFilter(p.Leases))
}

// reminders runs a query of planned reminders (id, user, lead, first,
// last, due).
func (e *executor) reminders(ctx context.Context, name string, args ...any) ([]driver.PlannedReminder, error) {
	rows, err := e.query(ctx, name, args...)
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

// PlannedOrReminded reports whether the pair p is planned or was
// reminded.
func (e *executor) PlannedOrReminded(ctx context.Context, p driver.ReminderKey) (bool, error) {
	var done bool
	err := e.queryRow(ctx, "PlannedOrReminded", p.CouponID, p.Lead.Milliseconds()).Scan(&done)
	return done, err
}

// InsertReminderItem adds a coupon to a planned reminder.
func (e *executor) InsertReminderItem(ctx context.Context, it driver.ReminderItem) error {
	_, err := e.exec(ctx, "InsertReminderItem", it.CouponID, it.Lead.Milliseconds(), it.ReminderID, ms(it.ExpiresAt), it.LastLead)
	return err
}

// UnplanCoupons takes coupons out of their planned reminders and returns
// those they were in.
func (e *executor) UnplanCoupons(ctx context.Context, couponIDs []string) ([]int64, error) {
	rows, err := e.queryList(ctx, "UnplanCoupons", couponIDs)
	return sqlfile.Collect(rows, err, sqlfile.ScanInt64)
}

// ItemSpan reads how many coupons a reminder lists and their expiry span.
func (e *executor) ItemSpan(ctx context.Context, id int64) (driver.ItemSpan, error) {
	var (
		s           driver.ItemSpan
		first, last sql.NullInt64
	)
	err := e.queryRow(ctx, "ItemSpan", id).Scan(&s.N, &first, &last)
	s.First, s.Last = atNull(first), atNull(last)
	return s, err
}

// SentBetween counts the reminders sent to p.User in [p.Start, p.End).
func (e *executor) SentBetween(ctx context.Context, p driver.SentBetweenParams) (int, error) {
	var n int
	err := e.queryRow(ctx, "SentToday", p.User, ms(p.Start), ms(p.End)).Scan(&n)
	return n, err
}

// FinishReminder marks a planned reminder sent or dropped and deletes its
// items.
func (e *executor) FinishReminder(ctx context.Context, f driver.FinishedReminder) (bool, error) {
	ok, err := e.execOne(ctx, "FinishReminder", f.ID, f.Status, nullString(string(f.Channel)), nullString(f.Reason), ms(f.At))
	if err != nil || !ok {
		return ok, err
	}
	_, err = e.exec(ctx, "DeleteReminderItems", f.ID)
	return true, err
}

// orNotFound is err, or storetype.ErrNotFound for none.
func orNotFound(err error) error {
	if err != nil {
		return err
	}
	return storetype.ErrNotFound
}
