package drivertest

import (
	"time"

	"github.com/lapsehq/lapse/driver"
)

// reminderTests test the planned reminder rows: how one is moved. (The
// rest of the reminder rows, which need claimed coupons, are
// store/storetest's reminder row tests.)
var reminderTests = []test{{"SetReminder", testSetReminder}}

// insertReminder stores r as planned in tx and returns it with its ID.
func (f *fixture) insertReminder(tx driver.Executor, r driver.PlannedReminder) driver.PlannedReminder {
	f.t.Helper()
	id, err := tx.InsertReminder(f.ctx, r)
	ok(f.t, "InsertReminder", err)
	r.ID = id
	return r
}

// wantReminder fails unless reminder id, read through the driver's
// Executor, is want.
func (f *fixture) wantReminder(what string, want driver.PlannedReminder) {
	f.t.Helper()
	got, err := f.d.Executor().Reminder(f.ctx, want.ID)
	ok(f.t, "Reminder", err)
	if got.ID != want.ID || got.UserID != want.UserID || got.Lead != want.Lead {
		f.t.Fatalf("%s: got %+v, want %+v", what, got, want)
	}
	wantTime(f.t, what+": First", got.First, want.First)
	wantTime(f.t, what+": Last", got.Last, want.Last)
	wantTime(f.t, what+": Due", got.Due, want.Due)
}

// testSetReminder: SetReminder stores a planned reminder's First, Last
// and Due, and leaves one no longer planned as it was.
func testSetReminder(f *fixture) {
	var planned, finished driver.PlannedReminder
	f.tx(func(tx driver.Executor) {
		ok(f.t, "TouchUser", tx.TouchUser(f.ctx, driver.TouchUserParams{ID: "u1", Now: t0}))
		planned = f.insertReminder(tx, driver.PlannedReminder{UserID: "u1", Lead: time.Hour, First: t0, Last: t0, Due: t0})
		finished = f.insertReminder(tx, driver.PlannedReminder{UserID: "u1", Lead: 2 * time.Hour, First: t0, Last: t0, Due: t0})
		done, err := tx.FinishReminder(f.ctx, driver.FinishedReminder{ID: finished.ID, Status: driver.ReminderDropped, Reason: "r", At: t0})
		ok(f.t, "FinishReminder", err)
		want(f.t, "FinishReminder", done, true)
	})
	moved := func(r driver.PlannedReminder) driver.PlannedReminder {
		r.First, r.Last, r.Due = t0.Add(time.Hour), t0.Add(2*time.Hour), t0.Add(90*time.Minute)
		return r
	}
	f.tx(func(tx driver.Executor) {
		ok(f.t, "SetReminder", tx.SetReminder(f.ctx, moved(planned)))
		ok(f.t, "SetReminder finished", tx.SetReminder(f.ctx, moved(finished)))
	})
	f.wantReminder("planned, moved", moved(planned))
	f.wantReminder("finished, kept", finished)
	rs, err := f.d.Executor().UserReminders(f.ctx, "u1")
	ok(f.t, "UserReminders", err)
	want(f.t, "UserReminders", len(rs), 1)
	want(f.t, "UserReminders", rs[0].ID, planned.ID)
}
