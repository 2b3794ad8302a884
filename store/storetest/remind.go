package storetest

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/remind"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// The suite runs every store with the default policy (remind.Default):
// windows of an hour, quiet hours 22:00-08:00, sms from 5000, none to
// users inactive for 30 days, three reminders a day.
var remindTests = []test{
	{"OnePerLeadListsAll", testRemindOnePerLead},
	{"WindowJoinsAndSplits", testRemindWindow},
	{"LeadAlreadyPassed", testRemindLeadPassed},
	{"UsedJustBeforeIsLeftOut", testRemindUsedJustBefore},
	{"DuplicateTriggersSendOnce", testRemindDuplicateTriggers},
	{"BackToUnused", testRemindBackToUnused},
	{"VoidReplans", testRemindVoid},
	{"QuietHours", testRemindQuietHours},
	{"LateSendInQuietHours", testRemindLateInQuietHours},
	{"Channels", testRemindChannels},
	{"DailyCapInLocalDay", testRemindDailyCap},
	{"BulkIssuedArePlanned", testRemindBulkIssued},
	{"ListBounded", testRemindListBounded},
}

// leadTemplate creates a template claimable from long before t0 whose
// coupons live life and are worth value, reminded at leads.
func (f *fixture) leadTemplate(life time.Duration, value int64, leads ...time.Duration) coupon.Template {
	f.t.Helper()
	return f.template(func(tp *coupon.Template) {
		tp.StartsAt, tp.Duration, tp.Value, tp.Reminders = t0.Add(-60*24*time.Hour), life, value, leads
	})
}

// claimCrossing claims a coupon of tp for user that crosses lead at x.
func (f *fixture) claimCrossing(tp coupon.Template, user string, lead time.Duration, x time.Time) coupon.Coupon {
	f.t.Helper()
	return f.claimDue(tp, user, x.Add(lead))
}

// reminder is a reminder.due event with its data.
type reminder struct {
	event storetype.Event
	data  store.ReminderEventData
}

// sendAt sends what is due at now and returns the reminders it wrote.
func (f *fixture) sendAt(now time.Time) []reminder {
	f.t.Helper()
	cursor := f.cursor()
	if _, err := f.s.SendDueReminders(f.ctx, storetype.DueParams{Now: now, Limit: 100}); err != nil {
		f.t.Fatalf("SendDueReminders(%s): %v", fmtTime(now), err)
	}
	return f.remindersAfter(cursor)
}

// remindersAfter returns the reminder.due events after the cursor.
func (f *fixture) remindersAfter(cursor int64) []reminder {
	f.t.Helper()
	var out []reminder
	for _, e := range f.eventsAfter(cursor) {
		if e.Type != store.EventReminderDue {
			continue
		}
		r := reminder{event: e}
		if err := json.Unmarshal(e.Data, &r.data); err != nil {
			f.t.Fatalf("reminder %s data %q: %v", e.ID, e.Data, err)
		}
		out = append(out, r)
	}
	return out
}

// wantNone fails unless nothing was sent.
func (f *fixture) wantNone(what string, got []reminder) {
	f.t.Helper()
	if len(got) != 0 {
		f.t.Fatalf("%s: got %d reminders (first %s), want none", what, len(got), got[0].event.Data)
	}
}

// wantOne fails unless exactly one reminder was sent, to user on ch for
// lead, listing exactly cs, earliest expiry first (then by ID), and
// returns it.
func (f *fixture) wantOne(what string, got []reminder, user string, ch remind.Channel, lead string, soon bool, cs ...coupon.Coupon) reminder {
	f.t.Helper()
	if len(got) != 1 {
		f.t.Fatalf("%s: got %d reminders, want 1", what, len(got))
	}
	r := got[0]
	d := r.data
	if r.event.Subject != user || d.UserID != user || d.Channel != string(ch) || d.Lead != lead || d.ExpiringSoon != soon {
		f.t.Fatalf("%s: got subject %s, data %s; want user %s, channel %s, lead %s, expiring_soon %v",
			what, r.event.Subject, r.event.Data, user, ch, lead, soon)
	}
	cs = slices.Clone(cs)
	slices.SortFunc(cs, func(a, b coupon.Coupon) int {
		if c := a.ExpiresAt.Compare(b.ExpiresAt); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	var gotIDs, wantIDs []string
	for _, c := range d.Coupons {
		gotIDs = append(gotIDs, c.ID)
	}
	for _, c := range cs {
		wantIDs = append(wantIDs, c.ID)
	}
	if !slices.Equal(gotIDs, wantIDs) {
		f.t.Fatalf("%s: coupons: got %v, want %v", what, gotIDs, wantIDs)
	}
	for i, c := range cs {
		f.wantTime(what+": coupon expires_at", time.Time(d.Coupons[i].ExpiresAt), c.ExpiresAt)
		if d.Coupons[i].TemplateID != c.TemplateID {
			f.t.Fatalf("%s: coupon %s template: got %s, want %s", what, c.ID, d.Coupons[i].TemplateID, c.TemplateID)
		}
	}
	return r
}

// putUser sets a user's profile at t0.
func (f *fixture) putUser(id, zone string, channels ...remind.Channel) remind.User {
	f.t.Helper()
	return get(f, "PutUser", f.s.PutUser, store.PutUserParams{User: remind.User{ID: id, Timezone: zone, Channels: channels}, Now: t0})
}

// testRemindOnePerLead: ten coupons of one user expiring within the same
// hour get one reminder per lead, listing all ten, when the first crosses
// it; the last lead is flagged expiring_soon.
func testRemindOnePerLead(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.leadTemplate(48*time.Hour, 1000, 24*time.Hour, time.Hour)
	var cs []coupon.Coupon
	for i := range 10 {
		cs = append(cs, f.claim(tp.ID, "ten", t0.Add(time.Duration(i)*5*time.Minute)))
	}
	first := t0.Add(24 * time.Hour)
	if ts := f.timers(); !hasTimer(ts, storetype.TimerRemind, storetype.BucketOf(first)) {
		f.t.Fatalf("timers: got %s, want a %s timer at %s", fmtTimers(ts), storetype.TimerRemind, fmtTime(first))
	}
	f.wantNone("1ms before the first crossing", f.sendAt(first.Add(-time.Millisecond)))
	f.wantStats("backlog: the reminder due", f.stats(first), storetype.Stats{DueBacklog: 1, Outbox: 10})
	r := f.wantOne("24h lead", f.sendAt(first), "ten", remind.InApp, "24h", false, cs...)
	f.wantTime("reminder time", r.event.Time, first)
	if got := r.data.Coupons[0].Value; got != 1000 {
		f.t.Fatalf("coupon value: got %d, want 1000", got)
	}
	f.wantStats("backlog after sending", f.stats(first), storetype.Stats{DueBacklog: 0, Outbox: 11})
	f.wantNone("the same lead, later", f.sendAt(first.Add(45*time.Minute)))
	f.wantNone("1ms before the 1h lead", f.sendAt(t0.Add(47*time.Hour-time.Millisecond)))
	f.wantOne("1h lead", f.sendAt(t0.Add(47*time.Hour)), "ten", remind.InApp, "1h", true, cs...)
	f.wantNone("after every lead", f.sendAt(t0.Add(49*time.Hour)))
	if got := len(f.remindersAfter(0)); got != 2 {
		f.t.Fatalf("reminders in all: got %d, want 2", got)
	}
}

// testRemindWindow: a coupon joins a planned reminder if the crossings
// stay within the window (an hour, bounds included), moving it earlier if
// it crosses first; otherwise it starts a reminder of its own.
func testRemindWindow(t *testing.T, open opener) {
	f := newFixture(t, open)
	day := 24 * time.Hour
	tp48, tp47 := f.leadTemplate(48*time.Hour, 100, day), f.leadTemplate(47*time.Hour, 100, day)
	tpD := f.leadTemplate(48*time.Hour-2*time.Minute, 100, day)
	x := t0.Add(day)
	a := f.claim(tp48.ID, "w", t0)                    // crosses x
	b := f.claim(tp47.ID, "w", t0.Add(time.Minute))   // x-59m: joins, first now
	c := f.claim(tp48.ID, "w", t0.Add(2*time.Minute)) // x+2m: 61m after b, a reminder of its own
	d := f.claim(tpD.ID, "w", t0.Add(3*time.Minute))  // x+1m: 60m after b, joins
	early := x.Add(-59 * time.Minute)
	f.wantNone("1ms before the new first crossing", f.sendAt(early.Add(-time.Millisecond)))
	f.wantOne("the first window", f.sendAt(early), "w", remind.InApp, "24h", true, b, a, d)
	f.wantNone("1ms before the second", f.sendAt(x.Add(2*time.Minute-time.Millisecond)))
	f.wantOne("the second window", f.sendAt(x.Add(2*time.Minute)), "w", remind.InApp, "24h", true, c)
}

// testRemindLeadPassed: a lead whose crossing is already past at the claim
// is not planned.
func testRemindLeadPassed(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.leadTemplate(time.Hour, 100, 24*time.Hour, 30*time.Minute)
	c := f.claim(tp.ID, "p", t0)
	f.wantOne("30m lead", f.sendAt(t0.Add(30*time.Minute)), "p", remind.InApp, "30m", true, c)
	f.wantNone("nothing else", f.sendAt(t0.Add(2*time.Hour)))
}

// testRemindUsedJustBefore: a coupon used a second before its reminder is
// due is left out of it; a reminder left empty is not sent.
func testRemindUsedJustBefore(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.leadTemplate(48*time.Hour, 100, 24*time.Hour)
	c1, c2 := f.claim(tp.ID, "u", t0), f.claim(tp.ID, "u", t0.Add(time.Minute))
	only := f.claim(tp.ID, "v", t0)
	due := t0.Add(24 * time.Hour)
	f.do(c1.ID, act(coupon.Redeem, "o1", due.Add(-time.Second)))
	f.do(only.ID, act(coupon.Redeem, "o2", due.Add(-time.Second)))
	f.wantOne("u's reminder", f.sendAt(due), "u", remind.InApp, "24h", true, c2)
	if d, err := f.s.SendDueReminders(f.ctx, storetype.DueParams{Now: due.Add(time.Hour), Limit: 100}); err != nil || !d.Next.IsZero() {
		f.t.Fatalf("after v's empty reminder: got next %s (%v), want nothing pending", fmtTime(d.Next), err)
	}
	if got := len(f.remindersAfter(0)); got != 1 {
		f.t.Fatalf("reminders in all: got %d, want 1 (v's was empty)", got)
	}
}

// testRemindDuplicateTriggers: many triggers of the same due reminder at
// once, and again later, send it once.
func testRemindDuplicateTriggers(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.leadTemplate(48*time.Hour, 100, 24*time.Hour)
	c := f.claim(tp.ID, "d", t0)
	due := t0.Add(24 * time.Hour)
	errs := race(func(i int) error {
		_, err := f.s.SendDueReminders(f.ctx, storetype.DueParams{Now: due.Add(time.Duration(i) * time.Millisecond), Limit: 100})
		return err
	})
	f.wantRace("racing triggers", errs, racers, nil)
	f.wantOne("after the race", f.remindersAfter(0), "d", remind.InApp, "24h", true, c)
	f.wantNone("a late trigger", f.sendAt(due.Add(time.Hour)))
}

// testRemindBackToUnused: a coupon that comes back to unused is planned
// again for the leads still ahead that it was not reminded of: not for
// one it was, nor twice for one still planned.
func testRemindBackToUnused(t *testing.T, open opener) {
	f := newFixture(t, open)
	day := 24 * time.Hour
	tp := f.leadTemplate(48*time.Hour, 100, day, time.Hour)
	a := f.claim(tp.ID, "b", t0)
	f.wantOne("a's 24h lead", f.sendAt(t0.Add(day)), "b", remind.InApp, "24h", false, a)
	f.do(a.ID, lock("o1", t0.Add(25*time.Hour), time.Hour))
	f.do(a.ID, act(coupon.Unlock, "o1", t0.Add(26*time.Hour)))
	f.wantNone("back to unused, 24h lead reminded", f.sendAt(t0.Add(30*time.Hour)))
	f.wantOne("a's 1h lead, once", f.sendAt(t0.Add(47*time.Hour)), "b", remind.InApp, "1h", true, a)

	// Locked when its reminder went out, back before its own crossing.
	tp24 := f.leadTemplate(48*time.Hour, 100, day)
	x := t0.Add(day)
	c1 := f.claim(tp24.ID, "l", t0)
	c2 := f.claim(tp24.ID, "l", t0.Add(30*time.Minute))
	f.do(c2.ID, lock("o2", x.Add(-time.Minute), time.Hour))
	f.wantOne("c2 locked", f.sendAt(x), "l", remind.InApp, "24h", true, c1)
	f.do(c2.ID, act(coupon.Unlock, "o2", x.Add(10*time.Minute)))
	f.wantNone("1ms before c2's own crossing", f.sendAt(x.Add(30*time.Minute-time.Millisecond)))
	f.wantOne("c2 planned again", f.sendAt(x.Add(30*time.Minute)), "l", remind.InApp, "24h", true, c2)
}

// testRemindVoid: voiding a coupon takes it out of its planned reminder,
// which then goes out when the next coupon crosses, or not at all.
// voidMix claims, of a template whose coupons live 48h reminded 24h
// before they end, a at t0 and b 30 minutes later for user v, and only
// at t0 for user w; x is a's crossing.
func (f *fixture) voidMix() (tp coupon.Template, x time.Time, a, b, only coupon.Coupon) {
	f.t.Helper()
	tp = f.leadTemplate(48*time.Hour, 100, 24*time.Hour)
	return tp, t0.Add(24 * time.Hour), f.claim(tp.ID, "v", t0), f.claim(tp.ID, "v", t0.Add(30*time.Minute)), f.claim(tp.ID, "w", t0)
}

func testRemindVoid(t *testing.T, open opener) {
	f := newFixture(t, open)
	_, x, a, b, only := f.voidMix()
	f.do(a.ID, act(coupon.Void, "", t0.Add(time.Hour)))
	f.do(only.ID, act(coupon.Void, "", t0.Add(time.Hour)))
	if ts := f.timers(); !hasTimer(ts, storetype.TimerRemind, storetype.BucketOf(x.Add(30*time.Minute))) {
		f.t.Fatalf("timers: got %s, want one at b's crossing %s", fmtTimers(ts), fmtTime(x.Add(30*time.Minute)))
	}
	f.wantNone("at a's crossing", f.sendAt(x))
	f.wantOne("at b's", f.sendAt(x.Add(30*time.Minute)), "v", remind.InApp, "24h", true, b)
	f.wantNone("w's only coupon voided", f.sendAt(x.Add(48*time.Hour)))
}

// testRemindQuietHours: for a user reachable by push, a reminder due in
// their quiet hours (in their timezone) goes out when those end, or before
// they start if they end after the coupon expires; setting the profile
// re-times reminders planned before it. A user reached in_app only is
// reminded on time.
func testRemindQuietHours(t *testing.T, open opener) {
	f := newFixture(t, open)
	shanghai, err := remind.Zone("Asia/Shanghai")
	if err != nil {
		t.Fatalf("zone: %v", err)
	}
	local := func(day, hour, minute int) time.Time {
		return time.Date(2026, 11, day, hour, minute, 0, 0, shanghai).UTC()
	}
	tp24 := f.leadTemplate(48*time.Hour, 100, 24*time.Hour)
	tp8 := f.leadTemplate(48*time.Hour, 100, 8*time.Hour)
	late := f.claimCrossing(tp8, "sh", 8*time.Hour, local(11, 23, 0))    // expires 07:00, before the quiet end
	night := f.claimCrossing(tp24, "sh", 24*time.Hour, local(11, 23, 0)) // expires the next night
	plain := f.claimCrossing(tp24, "app", 24*time.Hour, local(11, 23, 0))
	f.putUser("sh", "Asia/Shanghai", remind.Push, remind.InApp)
	f.putUser("app", "Asia/Shanghai")

	f.wantNone("1ms before the quiet hours start less a minute", f.sendAt(local(11, 21, 59).Add(-time.Millisecond)))
	f.wantOne("before the quiet hours", f.sendAt(local(11, 21, 59)), "sh", remind.Push, "8h", true, late)
	f.wantOne("in_app at the crossing", f.sendAt(local(11, 23, 0)), "app", remind.InApp, "24h", true, plain)
	f.wantNone("1ms before the quiet end", f.sendAt(local(12, 8, 0).Add(-time.Millisecond)))
	f.wantOne("at the quiet end", f.sendAt(local(12, 8, 0)), "sh", remind.Push, "24h", true, night)
}

// testRemindChannels: sms when the reminder's coupons are worth the
// threshold together and the user is reachable by sms and active; push
// otherwise, in_app for a user without channels.
func testRemindChannels(t *testing.T, open opener) {
	f := newFixture(t, open)
	day := 24 * time.Hour
	rich, half, poor := f.leadTemplate(48*time.Hour, 5000, day), f.leadTemplate(48*time.Hour, 2500, day), f.leadTemplate(48*time.Hour, 4999, day)
	long := f.leadTemplate(40*day, 5000, day)
	cases := []struct {
		user     string
		channels []remind.Channel
		tps      []coupon.Template
		want     remind.Channel
	}{
		{"worth-it", []remind.Channel{remind.SMS, remind.Push}, []coupon.Template{rich}, remind.SMS},
		{"two-halves", []remind.Channel{remind.SMS, remind.Push}, []coupon.Template{half, half}, remind.SMS},
		{"just-under", []remind.Channel{remind.SMS, remind.Push}, []coupon.Template{poor}, remind.Push},
		{"no-sms", []remind.Channel{remind.Push}, []coupon.Template{rich}, remind.Push},
		{"none", nil, []coupon.Template{rich}, remind.InApp},
		{"idle", []remind.Channel{remind.SMS, remind.Push}, []coupon.Template{long}, remind.Push},
	}
	for _, c := range cases {
		var cs []coupon.Coupon
		for _, tp := range c.tps {
			cs = append(cs, f.claim(tp.ID, c.user, t0))
		}
		// 08:00 in Shanghai, just past the quiet hours.
		f.putUser(c.user, "Asia/Shanghai", c.channels...)
		r := f.wantOne(c.user, f.sendAt(cs[0].ExpiresAt.Add(-day)), c.user, c.want, "24h", true, cs...)
		var total int64
		for _, rc := range r.data.Coupons {
			total += rc.Value
		}
		if want := int64(len(c.tps)) * c.tps[0].Value; total != want {
			f.t.Fatalf("%s: values: got %d, want %d", c.user, total, want)
		}
	}
}

// testRemindDailyCap: a user receives at most three reminders per day of
// their own timezone; the fourth is dropped, and the next local day starts
// afresh, though it is still the same day in UTC.
func testRemindDailyCap(t *testing.T, open opener) {
	f := newFixture(t, open)
	shanghai, err := remind.Zone("Asia/Shanghai")
	if err != nil {
		t.Fatalf("zone: %v", err)
	}
	day := 24 * time.Hour
	tp := f.leadTemplate(48*time.Hour, 100, day)
	crossings := []time.Time{
		time.Date(2026, 11, 12, 9, 0, 0, 0, shanghai),
		time.Date(2026, 11, 12, 11, 0, 0, 0, shanghai),
		time.Date(2026, 11, 12, 13, 0, 0, 0, shanghai),
		time.Date(2026, 11, 12, 15, 0, 0, 0, shanghai),
		time.Date(2026, 11, 13, 0, 30, 0, 0, shanghai), // 16:30 UTC on the 12th
	}
	var cs []coupon.Coupon
	for _, x := range crossings {
		cs = append(cs, f.claimCrossing(tp, "cap", day, x.UTC()))
	}
	f.putUser("cap", "Asia/Shanghai")
	for i, x := range crossings {
		got := f.sendAt(x.UTC())
		if i == 3 {
			f.wantNone("the fourth of the day", got)
			continue
		}
		f.wantOne(x.String(), got, "cap", remind.InApp, "24h", true, cs[i])
	}
}

// testRemindLateInQuietHours: a reminder sent late (its trigger lost, the
// service down) into the user's quiet hours waits for their end, unless a
// coupon expires first: then it goes out at once.
func testRemindLateInQuietHours(t *testing.T, open opener) {
	f := newFixture(t, open)
	day := 24 * time.Hour
	tp := f.leadTemplate(2*day, 100, day)
	noon := t0.Add(12 * time.Hour) // UTC, like the users
	waits := f.claimCrossing(tp, "waits", day, noon)
	short := f.leadTemplate(2*day, 100, 18*time.Hour)
	urgent := f.claimCrossing(short, "urgent", 18*time.Hour, noon) // expires at 06:00
	f.putUser("waits", "UTC", remind.Push)
	f.putUser("urgent", "UTC", remind.Push)
	late := t0.Add(23 * time.Hour)
	f.wantOne("late, expiring in the night", f.sendAt(late), "urgent", remind.Push, "18h", true, urgent)
	f.wantNone("1ms before the quiet end", f.sendAt(t0.Add(32*time.Hour-time.Millisecond)))
	f.wantOne("at the quiet end", f.sendAt(t0.Add(32*time.Hour)), "waits", remind.Push, "24h", true, waits)
}

// testRemindBulkIssued: coupons pushed by bulk issuance are reminded like
// claimed ones, one reminder per user.
func testRemindBulkIssued(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.leadTemplate(48*time.Hour, 1000, 24*time.Hour)
	f.issue(store.IssueParams{TemplateID: tp.ID, Users: store.UserList([]string{"b1", "b2", "b3"}), Now: t0})
	crossing := t0.Add(24 * time.Hour)
	f.wantNone("1ms before the crossing", f.sendAt(crossing.Add(-time.Millisecond)))
	got := f.sendAt(crossing)
	if len(got) != 3 {
		f.t.Fatalf("reminders for three bulk-issued users: got %d, want 3", len(got))
	}
	for _, r := range got {
		if len(r.data.Coupons) != 1 {
			f.t.Fatalf("reminder %s lists %d coupons, want 1", r.event.Subject, len(r.data.Coupons))
		}
	}
}

// testRemindListBounded: a reminder about more coupons than an event lists
// names the first MaxRemindedListed, earliest expiry first, and counts the
// rest; every one of them is reminded, so none comes up again.
func testRemindListBounded(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(func(tp *coupon.Template) {
		tp.StartsAt, tp.Duration, tp.Value, tp.Reminders = t0.Add(-60*24*time.Hour), 48*time.Hour, 1000, []time.Duration{24 * time.Hour}
	})
	n := store.MaxRemindedListed + 7
	users := make([]string, n)
	for i := range users {
		users[i] = "many"
	}
	f.issue(store.IssueParams{TemplateID: tp.ID, Users: store.UserList(users), Now: t0})
	got := f.sendAt(t0.Add(24 * time.Hour))
	if len(got) != 1 || len(got[0].data.Coupons) != store.MaxRemindedListed || got[0].data.More != n-store.MaxRemindedListed {
		f.t.Fatalf("reminders: got %d, want one listing %d coupons and %d more", len(got), store.MaxRemindedListed, n-store.MaxRemindedListed)
	}
	f.wantNone("the rest are reminded too", f.sendAt(t0.Add(25*time.Hour)))
}
