package storetest

import (
	"context"
	"crypto/md5"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/remind"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// reminderRowTests test the reminder rows of a driver, each of the
// driver's reminder methods in real transactions.
func reminderRowTests(newDriver NewDriver) []test {
	return driverTests(newDriver, newRowsFixture, []driverCase[*rowsFixture]{
		{"Users", testRowsUsers},
		{"TouchConcurrent", testRowsTouchConcurrent},
		{"Reminders", testRowsReminders},
		{"Items", testRowsItems},
		{"Finish", testRowsFinish},
		{"Due", testRowsDue},
		{"DueSkipsLocked", testRowsSkipLocked},
	})
}

// driverCase is a test run on a fixture F that reaches its store's
// driver.
type driverCase[F any] struct {
	name string
	run  func(f F)
}

// driverTests makes a test of each case, run on the fixture that fixture
// makes from the subtest and a fresh driver of newDriver.
func driverTests[F any](newDriver NewDriver, fixture func(*testing.T, driver.Driver) F, cases []driverCase[F]) []test {
	out := make([]test, len(cases))
	for i, c := range cases {
		out[i] = test{c.name, func(t *testing.T, _ opener) { c.run(fixture(t, newDriver(t))) }}
	}
	return out
}

// overDriver opens the store over d, with the default options.
func overDriver(d driver.Driver) opener {
	return func(*testing.T) store.Store { return store.New(d, store.Options{}) }
}

// newRowsFixture is the fixture of t over d.
func newRowsFixture(t *testing.T, d driver.Driver) *rowsFixture {
	return &rowsFixture{fixture: newFixture(t, overDriver(d)), d: d}
}

// rowsFixture is a fixture that also runs functions in write transactions
// of its store.
type rowsFixture struct {
	*fixture
	d driver.Driver
}

// inTx runs fn in one write transaction of the driver, committed if fn
// returns nil.
func (f *rowsFixture) inTx(ctx context.Context, fn func(tx driver.Executor) error) error {
	tx, err := f.d.Begin(ctx, false)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	_, err = tx.Commit(ctx, nil)
	return err
}

// tx runs fn in one write transaction, which must commit.
func (f *rowsFixture) tx(fn func(tx driver.Executor)) {
	f.t.Helper()
	if err := f.inTx(f.ctx, func(tx driver.Executor) error { fn(tx); return nil }); err != nil {
		f.t.Fatalf("transaction: %v", err)
	}
}

// ok fails the test on err; what names the call.
func (f *rowsFixture) ok(what string, err error) {
	f.t.Helper()
	if err != nil {
		f.t.Fatalf("%s: %v", what, err)
	}
}

// userInShard returns the first of the IDs u0, u1, ... after from whose
// shard is shard: the low four bits of the MD5 of the ID, as the backends
// compute it in SQL.
func userInShard(shard, from int) string {
	for i := from; ; i++ {
		id := fmt.Sprintf("u%d", i)
		if sum := md5.Sum([]byte(id)); int(sum[15]&0x0f) == shard {
			return id
		}
	}
}

// insertReminder stores a planned reminder of user and lead crossing
// first to last, due at due, and returns it with its ID.
func (f *rowsFixture) insertReminder(tx driver.Executor, user string, lead time.Duration, first, last, due time.Time) driver.PlannedReminder {
	f.t.Helper()
	r := driver.PlannedReminder{UserID: user, Lead: lead, First: first, Last: last, Due: due}
	id, err := tx.InsertReminder(f.ctx, r)
	f.ok("InsertReminder", err)
	r.ID = id
	return r
}

// wantReminder fails unless got is want.
func (f *rowsFixture) wantReminder(what string, got, want driver.PlannedReminder) {
	f.t.Helper()
	if got.ID != want.ID || got.UserID != want.UserID || got.Lead != want.Lead ||
		!got.First.Equal(want.First) || !got.Last.Equal(want.Last) || !got.Due.Equal(want.Due) {
		f.t.Fatalf("%s: got %s, want %s", what, fmtReminder(got), fmtReminder(want))
	}
}

// wantReminders fails unless got are want, in order.
func (f *rowsFixture) wantReminders(what string, got []driver.PlannedReminder, want ...driver.PlannedReminder) {
	f.t.Helper()
	if len(got) != len(want) {
		f.t.Fatalf("%s: got %s, want %s", what, fmtReminders(got), fmtReminders(want))
	}
	for i := range got {
		f.wantReminder(fmt.Sprintf("%s [%d]", what, i), got[i], want[i])
	}
}

func fmtReminder(r driver.PlannedReminder) string {
	return fmt.Sprintf("{id=%d user=%s lead=%s first=%s last=%s due=%s}",
		r.ID, r.UserID, r.Lead, fmtTime(r.First), fmtTime(r.Last), fmtTime(r.Due))
}

func fmtReminders(rs []driver.PlannedReminder) string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = fmtReminder(r)
	}
	return fmt.Sprint(out)
}

// testRowsUsers: a user unknown is not found; TouchUser creates the
// default profile and moves the activity forward only; PutUser sets the
// profile and keeps the activity; the store reads the same user.
func testRowsUsers(f *rowsFixture) {
	t1, t2 := t0.Add(time.Hour), t0.Add(2*time.Hour)
	f.tx(func(tx driver.Executor) {
		_, err := tx.User(f.ctx, "u1")
		f.wantErr("unknown user", err, storetype.ErrNotFound)
		f.ok("TouchUser", tx.TouchUser(f.ctx, driver.TouchUserParams{ID: "u1", Now: t1}))
		u, err := tx.User(f.ctx, "u1")
		f.ok("User", err)
		f.wantUser("touched", u, remind.User{ID: "u1", Timezone: "UTC", LastActiveAt: t1})
		f.ok("TouchUser earlier", tx.TouchUser(f.ctx, driver.TouchUserParams{ID: "u1", Now: t0}))
		u, err = tx.User(f.ctx, "u1")
		f.ok("User", err)
		f.wantUser("touched earlier", u, remind.User{ID: "u1", Timezone: "UTC", LastActiveAt: t1})
		f.ok("TouchUser later", tx.TouchUser(f.ctx, driver.TouchUserParams{ID: "u1", Now: t2}))

		want := remind.User{ID: "u1", Timezone: "Asia/Shanghai", Channels: []remind.Channel{remind.SMS, remind.InApp}, LastActiveAt: t2}
		u, err = tx.PutUser(f.ctx, remind.User{ID: "u1", Timezone: "Asia/Shanghai", Channels: want.Channels, LastActiveAt: t0})
		f.ok("PutUser", err)
		f.wantUser("PutUser keeps the activity", u, want)
		u, err = tx.PutUser(f.ctx, remind.User{ID: "u2", Timezone: "Europe/Paris"})
		f.ok("PutUser new", err)
		f.wantUser("PutUser new", u, remind.User{ID: "u2", Timezone: "Europe/Paris", Channels: []remind.Channel{}})
	})
	f.wantUser("read after commit", f.user("u1"),
		remind.User{ID: "u1", Timezone: "Asia/Shanghai", Channels: []remind.Channel{remind.SMS, remind.InApp}, LastActiveAt: t2})
	_, err := f.storeUser("nobody")
	f.wantErr("store: unknown user", err, storetype.ErrNotFound)
}

// storeUser reads a user through the store, outside any transaction.
func (f *rowsFixture) storeUser(id string) (remind.User, error) {
	users, ok := f.s.(interface {
		User(ctx context.Context, id string) (remind.User, error)
	})
	if !ok {
		f.t.Fatalf("%T reads no user (User(ctx, id))", f.s)
	}
	return users.User(f.ctx, id)
}

// user reads a user through the store.
func (f *rowsFixture) user(id string) remind.User {
	f.t.Helper()
	u, err := f.storeUser(id)
	f.ok("User", err)
	return u
}

// testRowsTouchConcurrent: transactions touching one new user at once all
// commit, and the latest activity wins.
func testRowsTouchConcurrent(f *rowsFixture) {
	const n = 8
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			errs[i] = f.inTx(f.ctx, func(tx driver.Executor) error {
				return tx.TouchUser(f.ctx, driver.TouchUserParams{ID: "u1", Now: t0.Add(time.Duration(i) * time.Minute)})
			})
		})
	}
	wg.Wait()
	f.ok("concurrent TouchUser", errors.Join(errs...))
	f.wantTime("last activity", f.user("u1").LastActiveAt, t0.Add((n-1)*time.Minute))
}

// testRowsReminders: a planned reminder is stored, read, found to join
// within its window only, re-spanned and re-timed, and listed with its
// user's.
func testRowsReminders(f *rowsFixture) {
	lead := 24 * time.Hour
	x := t0.Add(48 * time.Hour)
	f.tx(func(tx driver.Executor) {
		r := f.insertReminder(tx, "u1", lead, x, x.Add(10*time.Minute), x.Add(time.Minute))
		other := f.insertReminder(tx, "u1", time.Hour, x, x, x)
		f.insertReminder(tx, "u2", lead, x, x, x)
		got, err := tx.Reminder(f.ctx, r.ID)
		f.ok("Reminder", err)
		f.wantReminder("Reminder", got, r)
		_, err = tx.Reminder(f.ctx, r.ID+1000)
		f.wantErr("Reminder unknown", err, storetype.ErrNotFound)

		got, err = tx.JoinableReminder(f.ctx, driver.JoinableReminderParams{User: "u1", Lead: lead, Lo: x.Add(-time.Hour), Hi: x.Add(time.Hour)})
		f.ok("JoinableReminder", err)
		f.wantReminder("JoinableReminder", got, r)
		got, err = tx.JoinableReminder(f.ctx, driver.JoinableReminderParams{User: "u1", Lead: lead, Lo: x, Hi: x.Add(10 * time.Minute)})
		f.ok("JoinableReminder, bounds included", err)
		f.wantReminder("JoinableReminder, bounds included", got, r)
		for _, c := range []struct {
			what   string
			user   string
			lead   time.Duration
			lo, hi time.Time
		}{
			{"first before lo", "u1", lead, x.Add(time.Millisecond), x.Add(time.Hour)},
			{"last after hi", "u1", lead, x.Add(-time.Hour), x.Add(10*time.Minute - time.Millisecond)},
			{"other lead", "u1", 2 * time.Hour, x.Add(-time.Hour), x.Add(time.Hour)},
			{"other user", "u3", lead, x.Add(-time.Hour), x.Add(time.Hour)},
		} {
			_, err := tx.JoinableReminder(f.ctx, driver.JoinableReminderParams{User: c.user, Lead: c.lead, Lo: c.lo, Hi: c.hi})
			f.wantErr("JoinableReminder, "+c.what, err, storetype.ErrNotFound)
		}
		early := f.insertReminder(tx, "u1", lead, x.Add(-30*time.Minute), x.Add(-30*time.Minute), x)
		got, err = tx.JoinableReminder(f.ctx, driver.JoinableReminderParams{User: "u1", Lead: lead, Lo: x.Add(-time.Hour), Hi: x.Add(time.Hour)})
		f.ok("JoinableReminder, two", err)
		f.wantReminder("JoinableReminder, the earliest", got, early)

		r.First, r.Last, r.Due = x.Add(-5*time.Minute), x.Add(20*time.Minute), x.Add(2*time.Minute)
		f.ok("SetReminder", tx.SetReminder(f.ctx, r))
		got, err = tx.Reminder(f.ctx, r.ID)
		f.ok("Reminder", err)
		f.wantReminder("after SetReminder", got, r)
		r.Due = x.Add(9 * time.Hour)
		f.ok("SetReminder, due only", tx.SetReminder(f.ctx, r))
		got, err = tx.Reminder(f.ctx, r.ID)
		f.ok("Reminder", err)
		f.wantReminder("after SetReminder, due only", got, r)

		rs, err := tx.UserReminders(f.ctx, "u1")
		f.ok("UserReminders", err)
		f.wantReminders("UserReminders", rs, r, other, early)
		rs, err = tx.UserReminders(f.ctx, "u3")
		f.ok("UserReminders", err)
		f.wantReminders("UserReminders of none", rs)
	})
}

// testRowsItems: coupons join a reminder as items; the pairs planned are
// known; the span, the coupons as they are now, and taking a coupon out
// of its reminders follow the items.
func testRowsItems(f *rowsFixture) {
	long, short := 24*time.Hour, time.Hour
	// No reminders of its own: the claims plan nothing, the test does.
	tp := f.template(func(tp *coupon.Template) {
		tp.StartsAt, tp.Duration, tp.Value = t0.Add(-60*24*time.Hour), 72*time.Hour, 700
	})
	e1, e2 := t0.Add(50*time.Hour), t0.Add(51*time.Hour)
	c1, c2, c3 := f.claimDue(tp, "u1", e2), f.claimDue(tp, "u1", e1), f.claimDue(tp, "u1", e2)
	f.tx(func(tx driver.Executor) {
		r := f.insertReminder(tx, "u1", long, e1.Add(-long), e2.Add(-long), e1.Add(-long))
		rShort := f.insertReminder(tx, "u1", short, e1.Add(-short), e2.Add(-short), e1.Add(-short))
		f.wantSpan(tx, "ItemSpan of none", r.ID, 0, time.Time{}, time.Time{})
		for _, it := range []driver.ReminderItem{
			{CouponID: c1.ID, Lead: long, ReminderID: r.ID, ExpiresAt: e2},
			{CouponID: c2.ID, Lead: long, ReminderID: r.ID, ExpiresAt: e1},
			{CouponID: c3.ID, Lead: long, ReminderID: r.ID, ExpiresAt: e2},
			{CouponID: c1.ID, Lead: short, ReminderID: rShort.ID, ExpiresAt: e2, LastLead: true},
		} {
			f.ok("InsertReminderItem", tx.InsertReminderItem(f.ctx, it))
		}
		for _, c := range []struct {
			id   string
			lead time.Duration
			want bool
		}{{c1.ID, long, true}, {c1.ID, short, true}, {c2.ID, short, false}, {c1.ID, 2 * time.Hour, false}} {
			got, err := tx.PlannedOrReminded(f.ctx, driver.ReminderKey{CouponID: c.id, Lead: c.lead})
			f.ok("PlannedOrReminded", err)
			if got != c.want {
				f.t.Fatalf("PlannedOrReminded(%s, %s): got %v, want %v", c.id, c.lead, got, c.want)
			}
		}
		f.wantSpan(tx, "ItemSpan", r.ID, 3, e1, e2)

		f.ok("InsertReminded", tx.InsertReminded(f.ctx, driver.RemindedParams{Key: driver.ReminderKey{CouponID: c3.ID, Lead: long}, ReminderID: r.ID}))
		got, err := tx.PlannedOrReminded(f.ctx, driver.ReminderKey{CouponID: c2.ID, Lead: short})
		f.ok("PlannedOrReminded", err)
		f.ok("InsertReminded", tx.InsertReminded(f.ctx, driver.RemindedParams{Key: driver.ReminderKey{CouponID: c2.ID, Lead: short}, ReminderID: r.ID}))
		if again, err := tx.PlannedOrReminded(f.ctx, driver.ReminderKey{CouponID: c2.ID, Lead: short}); err != nil || got || !again {
			f.t.Fatalf("PlannedOrReminded of a pair reminded: got %v then %v, %v; want false then true", got, again, err)
		}
		cs, err := tx.ReminderCoupons(f.ctx, r.ID)
		f.ok("ReminderCoupons", err)
		// c2 expires first; c1 and c3 at the same time, by ID.
		want := []driver.ReminderCoupon{{Coupon: c2, Value: 700}, {Coupon: c1, Value: 700}, {Coupon: c3, Value: 700, Reminded: true}}
		if c3.ID < c1.ID {
			want[1], want[2] = want[2], want[1]
		}
		f.wantReminderCoupons("ReminderCoupons", cs, want)
		cs, err = tx.ReminderCoupons(f.ctx, rShort.ID)
		f.ok("ReminderCoupons", err)
		f.wantReminderCoupons("ReminderCoupons, last lead", cs, []driver.ReminderCoupon{{Coupon: c1, Value: 700, LastLead: true}})

		ids, err := tx.UnplanCoupons(f.ctx, []string{c1.ID, "cpn_unplanned"})
		f.ok("UnplanCoupons", err)
		if slices.Sort(ids); !slices.Equal(ids, []int64{r.ID, rShort.ID}) {
			f.t.Fatalf("UnplanCoupons: got %v, want %v", ids, []int64{r.ID, rShort.ID})
		}
		f.wantSpan(tx, "ItemSpan after UnplanCoupons", r.ID, 2, e1, e2)
		f.wantSpan(tx, "ItemSpan emptied", rShort.ID, 0, time.Time{}, time.Time{})
		if ids, err := tx.UnplanCoupons(f.ctx, []string{c1.ID}); err != nil || len(ids) != 0 {
			f.t.Fatalf("UnplanCoupons again: got %v, %v; want none", ids, err)
		}
		if got, err := tx.PlannedOrReminded(f.ctx, driver.ReminderKey{CouponID: c1.ID, Lead: long}); err != nil || got {
			f.t.Fatalf("PlannedOrReminded after UnplanCoupons: got %v, %v; want false", got, err)
		}
	})
	// A coupon as it is now: used since it was planned.
	used := f.do(c2.ID, lock("o1", t0, time.Minute))
	f.tx(func(tx driver.Executor) {
		ids, err := tx.UnplanCoupons(f.ctx, []string{c3.ID})
		f.ok("UnplanCoupons", err)
		cs, err := tx.ReminderCoupons(f.ctx, ids[0])
		f.ok("ReminderCoupons", err)
		f.wantReminderCoupons("ReminderCoupons, a coupon locked", cs, []driver.ReminderCoupon{{Coupon: used, Value: 700}})
	})
}

// wantSpan fails unless reminder id lists n coupons expiring first to last.
func (f *rowsFixture) wantSpan(tx driver.Executor, what string, id, n int64, first, last time.Time) {
	f.t.Helper()
	got, err := tx.ItemSpan(f.ctx, id)
	f.ok(what, err)
	if got.N != n || !got.First.Equal(first) || !got.Last.Equal(last) {
		f.t.Fatalf("%s: got %d %s %s, want %d %s %s", what, got.N, fmtTime(got.First), fmtTime(got.Last), n, fmtTime(first), fmtTime(last))
	}
}

// wantReminderCoupons fails unless got are want, in order.
func (f *rowsFixture) wantReminderCoupons(what string, got, want []driver.ReminderCoupon) {
	f.t.Helper()
	same := func(a, b driver.ReminderCoupon) bool {
		return sameCoupon(a.Coupon, b.Coupon) && a.Value == b.Value && a.LastLead == b.LastLead && a.Reminded == b.Reminded
	}
	if !slices.EqualFunc(got, want, same) {
		f.t.Fatalf("%s:\ngot  %s\nwant %s", what, fmtReminderCoupons(got), fmtReminderCoupons(want))
	}
}

func fmtReminderCoupons(cs []driver.ReminderCoupon) string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = fmt.Sprintf("%s value=%d last=%v reminded=%v", fmtCoupon(c.Coupon), c.Value, c.LastLead, c.Reminded)
	}
	return fmt.Sprint(out)
}

// testRowsFinish: a reminder finishes once, losing its items and its
// place among the planned; what was sent counts in its day; a pair is
// reminded once.
func testRowsFinish(f *rowsFixture) {
	lead := time.Hour
	tp := f.durationTemplate()
	c := f.claimDue(tp, "u1", t0.Add(2*time.Hour))
	var sent, dropped driver.PlannedReminder
	f.tx(func(tx driver.Executor) {
		sent = f.insertReminder(tx, "u1", lead, t0.Add(time.Hour), t0.Add(time.Hour), t0.Add(time.Hour))
		dropped = f.insertReminder(tx, "u1", 2*lead, t0, t0, t0)
		f.ok("InsertReminderItem", tx.InsertReminderItem(f.ctx, driver.ReminderItem{CouponID: c.ID, Lead: lead, ReminderID: sent.ID, ExpiresAt: c.ExpiresAt}))
		f.ok("InsertReminded", tx.InsertReminded(f.ctx, driver.RemindedParams{Key: driver.ReminderKey{CouponID: c.ID, Lead: lead}, ReminderID: sent.ID}))
		at := t0.Add(time.Hour)
		for _, r := range []struct {
			fin  driver.FinishedReminder
			want bool
		}{
			{driver.FinishedReminder{ID: sent.ID, Status: driver.ReminderSent, Channel: remind.Push, At: at}, true},
			{driver.FinishedReminder{ID: sent.ID, Status: driver.ReminderDropped, Reason: remind.DropEmpty, At: at}, false},
			{driver.FinishedReminder{ID: dropped.ID, Status: driver.ReminderDropped, Reason: remind.DropDailyCap, At: at}, true},
		} {
			ok, err := tx.FinishReminder(f.ctx, r.fin)
			f.ok("FinishReminder", err)
			if ok != r.want {
				f.t.Fatalf("FinishReminder(%+v): got %v, want %v", r.fin, ok, r.want)
			}
		}
		f.wantSpan(tx, "items of a finished reminder", sent.ID, 0, time.Time{}, time.Time{})
		if got, err := tx.PlannedOrReminded(f.ctx, driver.ReminderKey{CouponID: c.ID, Lead: lead}); err != nil || !got {
			f.t.Fatalf("PlannedOrReminded after the finish: got %v, %v; want true (reminded)", got, err)
		}
		rs, err := tx.UserReminders(f.ctx, "u1")
		f.ok("UserReminders", err)
		f.wantReminders("UserReminders after the finish", rs)
		f.ok("SetReminder finished", tx.SetReminder(f.ctx, driver.PlannedReminder{ID: sent.ID, First: t0, Last: t0, Due: t0.Add(9 * time.Hour)}))
		got, err := tx.Reminder(f.ctx, sent.ID)
		f.ok("Reminder", err)
		f.wantReminder("a finished reminder is not moved", got, sent)
		for _, c := range []struct {
			user       string
			start, end time.Time
			want       int
		}{
			{"u1", t0, t0.Add(24 * time.Hour), 1},
			{"u1", at, at.Add(time.Millisecond), 1},
			{"u1", t0, at, 0},
			{"u1", at.Add(time.Millisecond), at.Add(24 * time.Hour), 0},
			{"u2", t0, t0.Add(24 * time.Hour), 0},
		} {
			n, err := tx.SentBetween(f.ctx, driver.SentBetweenParams{User: c.user, Start: c.start, End: c.end})
			f.ok("SentBetween", err)
			if n != c.want {
				f.t.Fatalf("SentBetween(%s, %s, %s): got %d, want %d", c.user, fmtTime(c.start), fmtTime(c.end), n, c.want)
			}
		}
	})
	err := f.inTx(f.ctx, func(tx driver.Executor) error {
		return tx.InsertReminded(f.ctx, driver.RemindedParams{Key: driver.ReminderKey{CouponID: c.ID, Lead: lead}, ReminderID: dropped.ID})
	})
	if err == nil {
		f.t.Fatalf("InsertReminded of a pair reminded: no error")
	}
}

// testRowsDue: RemindersDue lists the planned reminders due, of the
// leases' shards, earliest first, up to the limit; NextDue reads the
// earliest planned of those shards.
func testRowsDue(f *rowsFixture) {
	leases, err := f.s.Lease(f.ctx, store.LeaseParams{Holder: "h1", TTL: time.Minute})
	f.ok("Lease", err)
	if len(leases) != storetype.Shards {
		f.t.Fatalf("Lease: got %d shards, want all %d", len(leases), storetype.Shards)
	}
	slices.SortFunc(leases, func(a, b storetype.Lease) int { return a.Shard - b.Shard })
	at := func(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }
	var rs [5]driver.PlannedReminder
	f.tx(func(tx driver.Executor) {
		// Shards 3, 9 and 3 again, due in another order than inserted.
		rs[0] = f.insertReminder(tx, userInShard(3, 0), time.Hour, at(5), at(5), at(5))
		rs[1] = f.insertReminder(tx, userInShard(9, 0), time.Hour, at(1), at(1), at(1))
		rs[2] = f.insertReminder(tx, userInShard(3, 0), 2*time.Hour, at(3), at(3), at(3))
		// Not due yet, in shard 9; finished, in shard 3.
		rs[3] = f.insertReminder(tx, userInShard(9, 0), 2*time.Hour, at(20), at(20), at(20))
		rs[4] = f.insertReminder(tx, userInShard(3, 0), 3*time.Hour, at(0), at(0), at(0))
		_, err := tx.FinishReminder(f.ctx, driver.FinishedReminder{ID: rs[4].ID, Status: driver.ReminderSent, Channel: remind.InApp, At: at(0)})
		f.ok("FinishReminder", err)
	})
	for _, c := range []struct {
		what   string
		leases []storetype.Lease
		limit  int
		want   []driver.PlannedReminder
		next   time.Time
	}{
		{"every shard", nil, 10, []driver.PlannedReminder{rs[1], rs[2], rs[0]}, at(1)},
		{"every shard, limited", nil, 2, []driver.PlannedReminder{rs[1], rs[2]}, at(1)},
		{"all leases", leases, 10, []driver.PlannedReminder{rs[1], rs[2], rs[0]}, at(1)},
		{"shard 3", leases[3:4], 10, []driver.PlannedReminder{rs[2], rs[0]}, at(3)},
		{"shards 2-4", leases[2:5], 1, []driver.PlannedReminder{rs[2]}, at(3)},
		{"shards 3 and 9", []storetype.Lease{leases[3], leases[9]}, 10, []driver.PlannedReminder{rs[1], rs[2], rs[0]}, at(1)},
		{"shard 9", leases[9:10], 10, []driver.PlannedReminder{rs[1]}, at(1)},
		{"shards 4-8", leases[4:9], 10, nil, time.Time{}},
	} {
		f.tx(func(tx driver.Executor) {
			got, err := tx.RemindersDue(f.ctx, storetype.DueParams{Now: at(10), Limit: c.limit, Leases: c.leases})
			f.ok("RemindersDue", err)
			f.wantReminders("RemindersDue, "+c.what, got, c.want...)
			next, err := tx.NextDue(f.ctx, driver.NextDueParams{Kind: storetype.TimerRemind, Leases: c.leases})
			f.ok("NextReminder", err)
			f.wantTime("NextReminder, "+c.what, next, c.next)
		})
	}
	f.tx(func(tx driver.Executor) {
		got, err := tx.RemindersDue(f.ctx, storetype.DueParams{Now: at(3), Limit: 10})
		f.ok("RemindersDue", err)
		f.wantReminders("RemindersDue at the due time of one", got, rs[1], rs[2])
	})
}

// testRowsSkipLocked: a transaction listing due reminders holds them:
// another one at the same time never lists them too. It lists the others
// at once, where the backend skips held rows, or, where writers take
// turns (SQLite), once the first has sent its reminder and committed.
func testRowsSkipLocked(f *rowsFixture) {
	rs := f.dueReminders(3)
	p := storetype.DueParams{Now: t0.Add(time.Hour), Limit: 10}
	held := make(chan []driver.PlannedReminder, 1)
	done := make(chan error, 1)
	go func() {
		done <- f.inTx(f.ctx, func(tx driver.Executor) error {
			got, err := tx.RemindersDue(f.ctx, storetype.DueParams{Now: p.Now, Limit: 1})
			if err != nil {
				return err
			}
			held <- got
			time.Sleep(200 * time.Millisecond) // the second transaction starts meanwhile
			if len(got) == 1 {
				_, err = tx.FinishReminder(f.ctx, driver.FinishedReminder{ID: got[0].ID, Status: driver.ReminderSent, Channel: remind.InApp, At: p.Now})
			}
			return err
		})
	}()
	var got []driver.PlannedReminder
	select {
	case got = <-held:
	case err := <-done:
		f.t.Fatalf("first transaction: %v", err)
	}
	f.wantReminders("first transaction", got, rs[0])
	f.tx(func(tx driver.Executor) {
		got, err := tx.RemindersDue(f.ctx, p)
		f.ok("RemindersDue", err)
		f.wantReminders("second transaction, the first holding", got, rs[1], rs[2])
	})
	f.ok("first transaction", <-done)
}

// dueReminders plans n reminders of users u0, u1, …, due a minute apart
// from t0, in one transaction.
func (f *rowsFixture) dueReminders(n int) []driver.PlannedReminder {
	rs := make([]driver.PlannedReminder, n)
	f.tx(func(tx driver.Executor) {
		for i := range rs {
			at := t0.Add(time.Duration(i) * time.Minute)
			rs[i] = f.insertReminder(tx, fmt.Sprintf("u%d", i), time.Hour, at, at, at)
		}
	})
	return rs
}

// runSkipLocked checks, on a driver whose writers run side by side
// (PostgreSQL, MySQL; SQLite's one writer makes them take turns, which
// DueSkipsLocked covers), that a transaction listing due reminders skips
// those another open transaction holds, at once, instead of waiting for
// it: instances sharing a store drain side by side.
func runSkipLocked(t *testing.T, newDriver NewDriver) {
	d := newDriver(t)
	f := newRowsFixture(t, d)
	rs := f.dueReminders(2)
	p := storetype.DueParams{Now: t0.Add(time.Hour), Limit: 10}
	first, err := d.Begin(f.ctx, false)
	f.ok("begin", err)
	defer first.Rollback()
	held, err := first.RemindersDue(f.ctx, storetype.DueParams{Now: p.Now, Limit: 1})
	f.ok("RemindersDue", err)
	f.wantReminders("first transaction", held, rs[0])
	ctx, cancel := context.WithTimeout(f.ctx, 5*time.Second)
	defer cancel()
	f.ok("second transaction", f.inTx(ctx, func(tx driver.Executor) error {
		got, err := tx.RemindersDue(ctx, p)
		if err == nil {
			f.wantReminders("second transaction, the first open", got, rs[1])
		}
		return err
	}))
}
