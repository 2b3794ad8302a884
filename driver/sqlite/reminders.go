package sqlite

import (
	"context"
	"time"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/sqlite/internal/dbsqlc"
	"github.com/lapsehq/lapse/storetype"
)

// The rows of planned reminders, one statement each; the rules are
// the service's.

// JoinableReminder returns the earliest planned reminder of p.User and
// p.Lead a coupon crossing within [p.Lo, p.Hi] joins.
func (e *executor) JoinableReminder(ctx context.Context, p driver.JoinableReminderParams) (driver.PlannedReminder, error) {
	r, err := e.q().JoinableReminder(ctx, dbsqlc.JoinableReminderParams{
		UserID: p.User, LeadMs: p.Lead.Milliseconds(), Lo: ms(p.Lo), Hi: ms(p.Hi),
	})
	return sqlfile.ConvertOne(r, err, func(r dbsqlc.JoinableReminderRow) (driver.PlannedReminder, error) {
		return reminderOf(dbsqlc.GetReminderRow{
			ID: r.ID, UserID: p.User, LeadMs: p.Lead.Milliseconds(), FirstAt: r.FirstAt, LastAt: r.LastAt, DueAt: r.DueAt,
		})
	}, interpret)
}

// InsertReminder stores r as planned and returns its ID.
func (e *executor) InsertReminder(ctx context.Context, r driver.PlannedReminder) (int64, error) {
	return e.q().InsertReminder(ctx, dbsqlc.InsertReminderParams{
		UserID: r.UserID, LeadMs: r.Lead.Milliseconds(), FirstAt: ms(r.First), LastAt: ms(r.Last), DueAt: ms(r.Due),
	})
}

// SetReminder stores r's span and due time, if r is still planned.
func (e *executor) SetReminder(ctx context.Context, r driver.PlannedReminder) error {
	return e.q().SetReminder(ctx, dbsqlc.SetReminderParams{FirstAt: ms(r.First), LastAt: ms(r.Last), DueAt: ms(r.Due), ID: r.ID})
}

// Reminder reads one reminder.
func (e *executor) Reminder(ctx context.Context, id int64) (driver.PlannedReminder, error) {
	r, err := e.q().GetReminder(ctx, id)
	return sqlfile.ConvertOne(r, err, reminderOf, interpret)
}

// UserReminders lists a user's planned reminders.
func (e *executor) UserReminders(ctx context.Context, user string) ([]driver.PlannedReminder, error) {
	rows, err := e.q().UserReminders(ctx, user)
	return sqlfile.Convert(rows, err, reminderOf)
}

// RemindersDue lists up to p.Limit planned reminders of p's shards due at
// p.Now, earliest first.
func (e *executor) RemindersDue(ctx context.Context, p storetype.DueParams) ([]driver.PlannedReminder, error) {
	rows, err := e.q().RemindersDue(ctx, dbsqlc.RemindersDueParams{Now: ms(p.Now), Shards: shardFilter(p.Leases), Lim: int64(p.Limit)})
	return sqlfile.Convert(rows, err, reminderOf)
}

// reminderOf is a planned reminder as stored, its columns as sqlc reads
// them.
func reminderOf[R dbsqlc.GetReminderRow | dbsqlc.UserRemindersRow | dbsqlc.RemindersDueRow](row R) (driver.PlannedReminder, error) {
	r := dbsqlc.GetReminderRow(row)
	return driver.PlannedReminder{
		ID: r.ID, UserID: r.UserID, Lead: time.Duration(r.LeadMs) * time.Millisecond,
		First: at(r.FirstAt), Last: at(r.LastAt), Due: at(r.DueAt),
	}, nil
}

// PlannedOrReminded reports whether the pair p is planned or was
// reminded.
func (e *executor) PlannedOrReminded(ctx context.Context, p driver.ReminderKey) (bool, error) {
	done, err := e.q().PlannedOrReminded(ctx, dbsqlc.PlannedOrRemindedParams{CouponID: p.CouponID, LeadMs: p.Lead.Milliseconds()})
	return done.Bool, err
}

// InsertReminderItem adds a coupon to a planned reminder.
func (e *executor) InsertReminderItem(ctx context.Context, it driver.ReminderItem) error {
	var lastLead int64
	if it.LastLead {
		lastLead = 1
	}
	return e.q().InsertReminderItem(ctx, dbsqlc.InsertReminderItemParams{
		CouponID: it.CouponID, LeadMs: it.Lead.Milliseconds(), ReminderID: it.ReminderID, ExpiresAt: ms(it.ExpiresAt), LastLead: lastLead,
	})
}

// UnplanCoupons takes coupons out of their planned reminders and returns
// those they were in.
func (e *executor) UnplanCoupons(ctx context.Context, couponIDs []string) ([]int64, error) {
	return e.q().UnplanCoupons(ctx, jsonList(couponIDs))
}

// ItemSpan reads how many coupons a reminder lists and their expiry span.
func (e *executor) ItemSpan(ctx context.Context, id int64) (driver.ItemSpan, error) {
	r, err := e.q().ItemSpan(ctx, id)
	if err != nil || r.N == 0 {
		return driver.ItemSpan{}, err
	}
	return driver.ItemSpan{N: r.N, First: at(r.Earliest), Last: at(r.Latest)}, nil
}

// SentBetween counts the reminders sent to p.User in [p.Start, p.End).
func (e *executor) SentBetween(ctx context.Context, p driver.SentBetweenParams) (int, error) {
	n, err := e.q().SentToday(ctx, dbsqlc.SentTodayParams{UserID: p.User, DayStart: msNotNull(p.Start), DayEnd: msNotNull(p.End)})
	return int(n), err
}

// FinishReminder marks a planned reminder sent or dropped and deletes its
// items.
func (e *executor) FinishReminder(ctx context.Context, f driver.FinishedReminder) (bool, error) {
	n, err := e.q().FinishReminder(ctx, dbsqlc.FinishReminderParams{
		ID: f.ID, Status: f.Status, Channel: nullString(string(f.Channel)), Reason: nullString(f.Reason), Now: msNotNull(f.At),
	})
	if err != nil || n == 0 {
		return false, err
	}
	return true, e.q().DeleteReminderItems(ctx, f.ID)
}

// InsertReminded records that the pair p.Key was reminded by reminder
// p.ReminderID; the pair's primary key refuses a second record.
func (e *executor) InsertReminded(ctx context.Context, p driver.RemindedParams) error {
	return e.q().InsertReminded(ctx, dbsqlc.InsertRemindedParams{CouponID: p.Key.CouponID, LeadMs: p.Key.Lead.Milliseconds(), ReminderID: p.ReminderID})
}

// ReminderCoupons reads the coupons planned reminder id lists, as they are
// now, earliest expires_at first, then by ID.
func (e *executor) ReminderCoupons(ctx context.Context, id int64) ([]driver.ReminderCoupon, error) {
	rows, err := e.q().ReminderCoupons(ctx, id)
	return sqlfile.Convert(rows, err, func(r dbsqlc.ReminderCouponsRow) (driver.ReminderCoupon, error) {
		c, err := couponOf(dbsqlc.Coupon{ID: r.ID, TemplateID: r.TemplateID, UserID: r.UserID, Status: r.Status, ClaimedAt: r.ClaimedAt,
			ExpiresAt: r.ExpiresAt, OrderID: r.OrderID, LockedUntil: r.LockedUntil, UpdatedAt: r.UpdatedAt, Version: r.Version})
		return driver.ReminderCoupon{Coupon: c, Value: r.Value, LastLead: r.LastLead != 0, Reminded: r.Reminded}, err
	})
}
