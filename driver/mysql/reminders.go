package mysql

import (
	"context"
	"database/sql"
	"time"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/mysql/internal/dbsqlc"
	"github.com/lapsehq/lapse/storetype"
)

// JoinableReminder returns the earliest planned reminder of p.User and
// p.Lead whose first crossing lies in [p.Lo, p.Hi] and last crossing at
// or before p.Hi; storetype.ErrNotFound if none.
func (e *executor) JoinableReminder(ctx context.Context, p driver.JoinableReminderParams) (driver.PlannedReminder, error) {
	r, err := e.sq().JoinableReminder(ctx, dbsqlc.JoinableReminderParams{UserID: p.User, LeadMs: p.Lead.Milliseconds(), Lo: p.Lo, Hi: p.Hi})
	return sqlfile.ConvertOne(r, err, reminder, interpret)
}

// InsertReminder stores r as planned and returns its ID.
func (e *executor) InsertReminder(ctx context.Context, r driver.PlannedReminder) (int64, error) {
	return e.sq().InsertReminder(ctx, dbsqlc.InsertReminderParams{
		UserID: r.UserID, LeadMs: r.Lead.Milliseconds(), FirstAt: r.First, LastAt: r.Last, DueAt: r.Due,
	})
}

// SetReminder stores r's First, Last and Due, if r is still planned.
func (e *executor) SetReminder(ctx context.Context, r driver.PlannedReminder) error {
	return e.sq().SetReminder(ctx, dbsqlc.SetReminderParams{FirstAt: r.First, LastAt: r.Last, DueAt: r.Due, ID: r.ID})
}

// Reminder reads reminder id, whatever its state; storetype.ErrNotFound
// if there is none.
func (e *executor) Reminder(ctx context.Context, id int64) (driver.PlannedReminder, error) {
	r, err := e.sq().GetReminder(ctx, id)
	return sqlfile.ConvertOne(r, err, reminder, interpret)
}

// UserReminders lists a user's planned reminders, oldest first.
func (e *executor) UserReminders(ctx context.Context, user string) ([]driver.PlannedReminder, error) {
	rows, err := e.sq().UserReminders(ctx, user)
	return sqlfile.Convert(rows, err, reminder)
}

// RemindersDue lists up to p.Limit planned reminders due at or before
// p.Now of the shards of p.Leases, earliest first, and holds them until
// the transaction ends: another instance skips them.
func (e *executor) RemindersDue(ctx context.Context, p storetype.DueParams) ([]driver.PlannedReminder, error) {
	return readDue(ctx, e.q, p, "DueReminderShards", func(ctx context.Context, q *dbsqlc.Queries, c claim) ([]driver.PlannedReminder, error) {
		now, shard, limit := c.args()
		rows, err := q.RemindersDue(ctx, dbsqlc.RemindersDueParams{Now: now, Shard: shard, Limit: limit})
		return sqlfile.Convert(rows, err, reminder[dbsqlc.RemindersDueRow])
	}, func(r driver.PlannedReminder) time.Time { return r.Due })
}

// PlannedOrReminded reports whether the pair p is in a planned reminder
// or was reminded.
func (e *executor) PlannedOrReminded(ctx context.Context, p driver.ReminderKey) (bool, error) {
	done, err := e.sq().PlannedOrReminded(ctx, dbsqlc.PlannedOrRemindedParams{CouponID: p.CouponID, LeadMs: p.Lead.Milliseconds()})
	return done.Bool, err
}

// InsertReminderItem adds a coupon to a planned reminder.
func (e *executor) InsertReminderItem(ctx context.Context, it driver.ReminderItem) error {
	return e.sq().InsertReminderItem(ctx, dbsqlc.InsertReminderItemParams{
		CouponID: it.CouponID, LeadMs: it.Lead.Milliseconds(), ReminderID: it.ReminderID, ExpiresAt: it.ExpiresAt, LastLead: it.LastLead,
	})
}

// UnplanCoupons takes coupons out of every planned reminder and returns
// those they were in.
func (e *executor) UnplanCoupons(ctx context.Context, couponIDs []string) ([]int64, error) {
	if len(couponIDs) == 0 {
		return nil, nil
	}
	ids, err := e.sq().CouponReminders(ctx, couponIDs)
	if err != nil {
		return nil, err
	}
	return ids, e.sq().DeleteCouponItems(ctx, couponIDs)
}

// ItemSpan reads how many coupons planned reminder id lists and their
// earliest and latest expires_at (zero if none).
func (e *executor) ItemSpan(ctx context.Context, id int64) (driver.ItemSpan, error) {
	r, err := e.sq().ItemSpan(ctx, id)
	if err == sql.ErrNoRows {
		return driver.ItemSpan{}, nil
	}
	return driver.ItemSpan{N: r.N, First: r.First.UTC(), Last: r.Last.UTC()}, err
}

// SentBetween counts the reminders sent to p.User with their done time
// in [p.Start, p.End).
func (e *executor) SentBetween(ctx context.Context, p driver.SentBetweenParams) (int, error) {
	n, err := e.sq().SentBetween(ctx, dbsqlc.SentBetweenParams{
		UserID: p.User, Start: sql.NullTime{Time: p.Start, Valid: true}, End: sql.NullTime{Time: p.End, Valid: true},
	})
	return int(n), err
}

// FinishReminder marks planned reminder f.ID sent or dropped at f.At and
// deletes its items; false if it was no longer planned.
func (e *executor) FinishReminder(ctx context.Context, f driver.FinishedReminder) (bool, error) {
	n, err := e.sq().FinishReminder(ctx, dbsqlc.FinishReminderParams{
		Status: f.Status, Channel: nullString(string(f.Channel)), Reason: nullString(f.Reason),
		DoneAt: sql.NullTime{Time: f.At, Valid: true}, ID: f.ID,
	})
	if err != nil || n == 0 {
		return false, err
	}
	err = e.sq().DeleteReminderItems(ctx, f.ID)
	return err == nil, err
}

// reminder is a reminder row as the store reads it, from any query of
// GetReminder's columns.
func reminder[R dbsqlc.GetReminderRow | dbsqlc.JoinableReminderRow | dbsqlc.UserRemindersRow | dbsqlc.RemindersDueRow](row R) (driver.PlannedReminder, error) {
	r := dbsqlc.GetReminderRow(row)
	return driver.PlannedReminder{
		ID: r.ID, UserID: r.UserID, Lead: time.Duration(r.LeadMs) * time.Millisecond, First: r.FirstAt, Last: r.LastAt, Due: r.DueAt,
	}, nil
}

// InsertReminded records that the pair p.Key was reminded by reminder
// p.ReminderID; the pair's primary key refuses a second record.
func (e *executor) InsertReminded(ctx context.Context, p driver.RemindedParams) error {
	return e.sq().InsertReminded(ctx, dbsqlc.InsertRemindedParams{CouponID: p.Key.CouponID, LeadMs: p.Key.Lead.Milliseconds(), ReminderID: p.ReminderID})
}

// ReminderCoupons reads the coupons planned reminder id lists, as they are
// now, earliest expires_at first, then by ID.
func (e *executor) ReminderCoupons(ctx context.Context, id int64) ([]driver.ReminderCoupon, error) {
	rows, err := e.sq().ReminderCoupons(ctx, id)
	return sqlfile.Convert(rows, err, func(r dbsqlc.ReminderCouponsRow) (driver.ReminderCoupon, error) {
		c, err := storedCoupon(dbsqlc.GetCouponRow{ID: r.ID, TemplateID: r.TemplateID, UserID: r.UserID, Status: r.Status, ClaimedAt: r.ClaimedAt,
			ExpiresAt: r.ExpiresAt, OrderID: r.OrderID, LockedUntil: r.LockedUntil, UpdatedAt: r.UpdatedAt, Version: r.Version})
		return driver.ReminderCoupon{Coupon: c, Value: r.Value, LastLead: r.LastLead, Reminded: r.Reminded}, err
	})
}
