package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// t0 is the suite's reference instant; every other time is relative to it.
var t0 = time.Date(2026, 11, 11, 0, 0, 0, 0, time.UTC)

// later is after every time the tests write.
var later = t0.AddDate(1, 0, 0)

// farFuture is past every time the suite uses.
var farFuture = t0.Add(10 * 365 * 24 * time.Hour)

// opener returns a fresh, empty store that lives until t ends.
type opener func(t *testing.T) store.Store

// test is one subtest of the suite. It opens a fresh store for itself, or
// one per case of its table.
type test struct {
	name string
	run  func(t *testing.T, open opener)
}

// NewDriver opens a driver of a fresh, empty database that it closes and
// removes when t ends (t.Cleanup).
type NewDriver func(t *testing.T) driver.Driver

// open returns the store over a fresh driver newDriver opens, with the
// default reminder policy and hooks h.
func open(t *testing.T, newDriver NewDriver, h store.Hooks) store.Store {
	return store.New(newDriver(t), store.Options{Hooks: h})
}

// Run runs the whole conformance suite against the stores over the
// drivers newDriver opens, one per subtest.
func Run(t *testing.T, newDriver NewDriver) {
	newStore := func(t *testing.T) store.Store { return open(t, newDriver, store.Hooks{}) }
	groups := []struct {
		name  string
		tests []test
	}{
		{"Template", templateTests},
		{"Claim", claimTests},
		{"Issue", issueTests},
		{"Transition", transitionTests},
		{"Concurrency", concurrencyTests},
		{"ExpireDue", expireTests},
		{"ReleaseLocks", releaseTests},
		{"Timers", timerTests},
		{"UserCoupons", walletTests},
		{"Events", eventTests},
		{"Sinks", sinkTests},
		{"Idempotency", idempotencyTests},
		{"Stats", statsTests},
		{"Forecast", forecastTests},
		{"Orders", orderTests},
		{"Buckets", bucketTests},
		{"Users", userTests},
		{"Reminders", remindTests},
		{"Leases", leaseTests},
		{"Tokens", tokenTests},
		{"Operations", operationTests},
		{"Archive", archiveTests},
		{"ReminderRows", reminderRowTests(newDriver)},
		{"Reconcile", reconcileTests(newDriver)},
	}
	for _, g := range groups {
		t.Run(g.name, func(t *testing.T) {
			for _, tc := range g.tests {
				t.Run(tc.name, func(t *testing.T) { tc.run(t, newStore) })
			}
		})
	}
	t.Run("Hooks", func(t *testing.T) { runHooks(t, newDriver) })
	t.Run("IssueResume", func(t *testing.T) { runIssueResume(t, newDriver) })
	t.Run("IdempotencyWait", func(t *testing.T) { runIdempotencyWait(t, newDriver) })
	t.Run("Canceled", func(t *testing.T) { runCanceled(t, newDriver) })
	t.Run("RefusalRecordFails", func(t *testing.T) { runRefusalRecordFails(t, newDriver) })
}

// fixture is one subtest's store with the helpers that fail the test on
// any unexpected error.
type fixture struct {
	t   *testing.T
	s   store.Store
	ctx context.Context
}

// newFixture opens a fresh store for t.
func newFixture(t *testing.T, open opener) *fixture {
	t.Helper()
	return &fixture{t: t, s: open(t), ctx: t.Context()}
}

// template creates the default template, edited by edit: claimable from a
// day before t0, each coupon living 24h from its claim, no limits.
func (f *fixture) template(edit func(*coupon.Template)) coupon.Template {
	f.t.Helper()
	tp := coupon.Template{
		Name:     "Singles' Day ¥10 off",
		Value:    1000,
		MinSpend: 5000,
		StartsAt: t0.Add(-24 * time.Hour),
		Duration: 24 * time.Hour,
	}
	if edit != nil {
		edit(&tp)
	}
	if err := tp.Validate(tp.StartsAt); err != nil {
		f.t.Fatalf("suite template invalid: %v", err)
	}
	got, err := f.s.CreateTemplate(f.ctx, store.CreateTemplateParams{Template: tp, Now: tp.StartsAt.Add(-time.Hour)})
	if err != nil {
		f.t.Fatalf("CreateTemplate: %v", err)
	}
	return got
}

// claim claims one coupon of tplID for user at now.
func (f *fixture) claim(tplID, user string, now time.Time) coupon.Coupon {
	f.t.Helper()
	return get(f, "Claim", f.s.Claim, store.ClaimParams{TemplateID: tplID, UserID: user, Now: now})
}

// do runs one transition that must succeed.
func (f *fixture) do(id string, p store.TransitionParams) coupon.Coupon {
	f.t.Helper()
	p.CouponID = id
	c, err := f.s.Transition(f.ctx, p)
	if err != nil {
		f.t.Fatalf("Transition %s by %q at %s: %v", p.Action, p.OrderID, p.Now.Format(time.RFC3339Nano), err)
	}
	return c
}

// get returns what read answers for key, failing the test with the
// read's name and key on any error.
func get[K, T any](f *fixture, name string, read func(context.Context, K) (T, error), key K) T {
	f.t.Helper()
	v, err := read(f.ctx, key)
	if err != nil {
		f.t.Fatalf("%s(%v): %v", name, key, err)
	}
	return v
}

// coupon reads one coupon as stored.
func (f *fixture) coupon(id string) coupon.Coupon {
	f.t.Helper()
	return get(f, "Coupon", f.s.Coupon, id)
}

// wantStatus fails unless the coupon id is stored in state want.
func (f *fixture) wantStatus(what, id string, want coupon.State) {
	f.t.Helper()
	if got := f.coupon(id); got.Status != want {
		f.t.Fatalf("%s: got %s, want %s", what, got.Status, want)
	}
}

// counts reads a template's counts at now.
func (f *fixture) counts(tplID string, now time.Time) map[coupon.State]int64 {
	f.t.Helper()
	info, err := f.s.Template(f.ctx, store.TemplateParams{ID: tplID, Now: now})
	if err != nil {
		f.t.Fatalf("Template(%s): %v", tplID, err)
	}
	return info.Counts
}

// wantCounts fails unless got holds exactly want for every state; a state
// missing from either map counts zero.
func (f *fixture) wantCounts(what string, got map[coupon.State]int64, want map[coupon.State]int64) {
	f.t.Helper()
	for _, st := range coupon.States {
		if got[st] != want[st] {
			f.t.Fatalf("%s: counts[%s]: got %d, want %d (all: %s)", what, st, got[st], want[st], fmtCounts(got))
		}
	}
}

func fmtCounts(m map[coupon.State]int64) string {
	out := ""
	for _, st := range coupon.States {
		out += fmt.Sprintf("%s=%d ", st, m[st])
	}
	return out
}

// eventsAfter reads the whole outbox after the cursor, page by page.
func (f *fixture) eventsAfter(after int64) []storetype.Event {
	f.t.Helper()
	var out []storetype.Event
	for {
		page, err := f.s.Events(f.ctx, store.EventsParams{After: after, Limit: 100})
		if err != nil {
			f.t.Fatalf("Events(after %d): %v", after, err)
		}
		if len(page) == 0 {
			return out
		}
		if page[0].Seq <= after {
			f.t.Fatalf("Events(after %d): first event has seq %d, want a later one", after, page[0].Seq)
		}
		out = append(out, page...)
		after = page[len(page)-1].Seq
	}
}

// wantNoneAfter fails if the outbox holds an event after the cursor.
func (f *fixture) wantNoneAfter(what string, after int64) {
	f.t.Helper()
	if es := f.eventsAfter(after); len(es) != 0 {
		f.t.Fatalf("%s: got %s, want none", what, fmtEvents(es))
	}
}

// events reads the whole outbox.
func (f *fixture) events() []storetype.Event {
	f.t.Helper()
	return f.eventsAfter(0)
}

// cursor is the Seq of the newest event, 0 if there is none.
func (f *fixture) cursor() int64 {
	f.t.Helper()
	all := f.events()
	if len(all) == 0 {
		return 0
	}
	return all[len(all)-1].Seq
}

// eventsOf returns the events whose subject is id, in feed order.
func (f *fixture) eventsOf(id string) []storetype.Event {
	f.t.Helper()
	return ofSubject(f.events(), id)
}

// ofSubject returns the events of es whose subject is id, in their order.
func ofSubject(es []storetype.Event, id string) []storetype.Event {
	var out []storetype.Event
	for _, e := range es {
		if e.Subject == id {
			out = append(out, e)
		}
	}
	return out
}

// timers reads every timer of the store.
func (f *fixture) timers() []storetype.Timer {
	f.t.Helper()
	return get(f, "Timers", f.s.Timers, storetype.TimersParams{Before: farFuture, Limit: 10000})
}

// userCoupons lists a user's coupons at now, filtered on status (0: all).
func (f *fixture) userCoupons(user string, status coupon.State, now time.Time) []coupon.Coupon {
	f.t.Helper()
	return f.walletPages(storetype.UserCouponsParams{UserID: user, Status: status, Now: now})
}

// wantHolds fails unless user holds n coupons at now, of any status.
func (f *fixture) wantHolds(what, user string, now time.Time, n int) {
	f.t.Helper()
	if cs := f.userCoupons(user, 0, now); len(cs) != n {
		f.t.Fatalf("%s: %s holds %d coupons, want %d", what, user, len(cs), n)
	}
}

// walletPage is the page size walletPages reads: small, so that a test's
// few coupons take several pages.
const walletPage = 2

// walletPages reads every page of p's wallet, walletPage coupons a page,
// following each page's last ID. Each page must hold at most its limit,
// by ID, after its cursor, each coupon read as the lazy check reads it and
// in p.Status if set.
func (f *fixture) walletPages(p storetype.UserCouponsParams) []coupon.Coupon {
	f.t.Helper()
	var all []coupon.Coupon
	for p.Limit = walletPage; ; {
		cs, err := f.s.UserCoupons(f.ctx, p)
		if err != nil {
			f.t.Fatalf("UserCoupons(%+v): %v", p, err)
		}
		for _, c := range cs {
			if c.ID <= p.After || (p.Status != 0 && c.Status != p.Status) || c != c.View(p.Now) {
				f.t.Fatalf("UserCoupons(%+v): page holds %s", p, fmtCoupon(c))
			}
			p.After = c.ID
		}
		if len(cs) > p.Limit {
			f.t.Fatalf("UserCoupons(%+v): %d coupons, over the limit", p, len(cs))
		}
		all = append(all, cs...)
		if len(cs) < p.Limit {
			return all
		}
	}
}

// data decodes a coupon event's data.
func (f *fixture) data(e storetype.Event) store.CouponEventData {
	f.t.Helper()
	var d store.CouponEventData
	if err := json.Unmarshal(e.Data, &d); err != nil {
		f.t.Fatalf("event %s (%s) data %q: %v", e.ID, e.Type, e.Data, err)
	}
	return d
}

// wantErr fails unless err is (or wraps) want.
func (f *fixture) wantErr(what string, err, want error) {
	f.t.Helper()
	if !errors.Is(err, want) {
		f.t.Fatalf("%s: got error %v, want %v", what, err, want)
	}
}

// wantTime fails unless got and want are the same instant.
func (f *fixture) wantTime(what string, got, want time.Time) {
	f.t.Helper()
	if !got.Equal(want) {
		f.t.Fatalf("%s: got %s, want %s", what, fmtTime(got), fmtTime(want))
	}
}

// wantTimes fails unless got and want hold the same instants in any order.
func (f *fixture) wantTimes(what string, got, want []time.Time) {
	f.t.Helper()
	got, want = slices.Clone(got), slices.Clone(want)
	slices.SortFunc(got, time.Time.Compare)
	slices.SortFunc(want, time.Time.Compare)
	if !slices.EqualFunc(got, want, time.Time.Equal) {
		f.t.Fatalf("%s: got %s, want %s", what, fmtTimes(got), fmtTimes(want))
	}
}

func fmtTime(t time.Time) string {
	if t.IsZero() {
		return "zero"
	}
	return t.UTC().Format("2006-01-02T15:04:05.000Z")
}

func fmtTimes(ts []time.Time) string {
	out := "["
	for i, t := range ts {
		if i > 0 {
			out += " "
		}
		out += fmtTime(t)
	}
	return out + "]"
}

// fmtCoupon prints a coupon with readable times.
func fmtCoupon(c coupon.Coupon) string {
	return fmt.Sprintf("{id=%s tpl=%s user=%s %s claimed=%s expires=%s order=%q locked_until=%s updated=%s v%d}",
		c.ID, c.TemplateID, c.UserID, c.Status, fmtTime(c.ClaimedAt), fmtTime(c.ExpiresAt),
		c.OrderID, fmtTime(c.LockedUntil), fmtTime(c.UpdatedAt), c.Version)
}

func sameCoupon(a, b coupon.Coupon) bool {
	return a.ID == b.ID && a.TemplateID == b.TemplateID && a.UserID == b.UserID && a.Status == b.Status &&
		a.ClaimedAt.Equal(b.ClaimedAt) && a.ExpiresAt.Equal(b.ExpiresAt) && a.OrderID == b.OrderID &&
		a.LockedUntil.Equal(b.LockedUntil) && a.UpdatedAt.Equal(b.UpdatedAt) && a.Version == b.Version
}

// wantCoupon fails unless got and want agree on every field.
func (f *fixture) wantCoupon(what string, got, want coupon.Coupon) {
	f.t.Helper()
	if !sameCoupon(got, want) {
		f.t.Fatalf("%s:\n got %s\nwant %s", what, fmtCoupon(got), fmtCoupon(want))
	}
}

// wantIDs fails unless cs holds exactly the coupons with the given IDs, in
// any order.
func (f *fixture) wantIDs(what string, cs []coupon.Coupon, ids ...string) {
	f.t.Helper()
	got := make([]string, len(cs))
	for i, c := range cs {
		got[i] = c.ID
	}
	want := slices.Clone(ids)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		f.t.Fatalf("%s: got coupons %v, want %v", what, got, want)
	}
}

// wantEvent checks one coupon event: its type, subject, time and data.
func (f *fixture) wantEvent(what string, e storetype.Event, typ string, c coupon.Coupon, at time.Time, want store.CouponEventData) {
	f.t.Helper()
	if e.Type != typ {
		f.t.Fatalf("%s: event type: got %q, want %q", what, e.Type, typ)
	}
	if e.Subject != c.ID {
		f.t.Fatalf("%s: event subject: got %q, want %q", what, e.Subject, c.ID)
	}
	if e.ID == "" {
		f.t.Fatalf("%s: event %d has an empty ID", what, e.Seq)
	}
	f.wantTime(what+": event time", e.Time, at)
	d := f.data(e)
	want.UserID, want.TemplateID = c.UserID, c.TemplateID
	if d.From != want.From || d.Reason != want.Reason || d.OrderID != want.OrderID ||
		d.UserID != want.UserID || d.TemplateID != want.TemplateID {
		f.t.Fatalf("%s: event data: got %+v, want %+v", what, d, want)
	}
	f.wantTime(what+": event data expires_at", time.Time(d.ExpiresAt), c.ExpiresAt)
}

// snapshot is what a refused call must leave as it found: a template's
// counts, a user's coupons, the outbox and the timers.
type snapshot struct {
	counts  map[coupon.State]int64
	coupons []coupon.Coupon
	events  []storetype.Event
	timers  []storetype.Timer
}

// snap takes a snapshot around template tplID and user at now.
func (f *fixture) snap(tplID, user string, now time.Time) snapshot {
	f.t.Helper()
	return snapshot{
		counts:  f.counts(tplID, now),
		coupons: f.userCoupons(user, 0, now),
		events:  f.events(),
		timers:  f.timers(),
	}
}

// unchanged fails unless a new snapshot equals before.
func (f *fixture) unchanged(what, tplID, user string, now time.Time, before snapshot) {
	f.t.Helper()
	after := f.snap(tplID, user, now)
	f.wantCounts(what+": counts", after.counts, before.counts)
	if len(after.coupons) != len(before.coupons) {
		f.t.Fatalf("%s: user coupons: got %d, want %d", what, len(after.coupons), len(before.coupons))
	}
	for _, b := range before.coupons {
		i := slices.IndexFunc(after.coupons, func(a coupon.Coupon) bool { return a.ID == b.ID })
		if i < 0 {
			f.t.Fatalf("%s: coupon %s vanished", what, b.ID)
		}
		f.wantCoupon(what+": coupon", after.coupons[i], b)
	}
	if len(after.events) != len(before.events) {
		f.t.Fatalf("%s: events: got %d, want %d (new: %s)", what, len(after.events), len(before.events),
			fmtEvents(after.events[min(len(before.events), len(after.events)):]))
	}
	f.wantTimers(what+": timers", sortTimers(after.timers), sortTimers(before.timers))
}

func fmtEvents(es []storetype.Event) string {
	out := "["
	for i, e := range es {
		if i > 0 {
			out += " "
		}
		out += fmt.Sprintf("%d:%s:%s", e.Seq, e.Type, e.Subject)
	}
	return out + "]"
}

func fmtTimers(ts []storetype.Timer) string {
	out := "["
	for i, tm := range ts {
		if i > 0 {
			out += " "
		}
		out += string(tm.Kind) + "@" + fmtTime(tm.Due)
	}
	return out + "]"
}

// sortTimers returns ts ordered by due time, then kind.
func sortTimers(ts []storetype.Timer) []storetype.Timer {
	ts = slices.Clone(ts)
	slices.SortFunc(ts, func(a, b storetype.Timer) int {
		if c := a.Due.Compare(b.Due); c != 0 {
			return c
		}
		return strings.Compare(string(a.Kind), string(b.Kind))
	})
	return ts
}

func sameTimer(a, b storetype.Timer) bool { return a.Kind == b.Kind && a.Due.Equal(b.Due) }

// wantTimers fails unless got equals want, in order.
func (f *fixture) wantTimers(what string, got, want []storetype.Timer) {
	f.t.Helper()
	if !slices.EqualFunc(got, want, sameTimer) {
		f.t.Fatalf("%s: got %s, want %s", what, fmtTimers(got), fmtTimers(want))
	}
}

// hasTimer reports whether ts holds a timer of kind at due.
func hasTimer(ts []storetype.Timer, kind storetype.TimerKind, due time.Time) bool {
	return slices.ContainsFunc(ts, func(tm storetype.Timer) bool { return sameTimer(tm, storetype.Timer{Kind: kind, Due: due}) })
}

// Transition params the tests build their steps from. Reasons are given
// explicitly so that what an event records is what the caller said.
func lock(order string, at time.Time, ttl time.Duration) store.TransitionParams {
	return store.TransitionParams{Action: coupon.Lock, OrderID: order, LockTTL: ttl, Reason: "checkout", Now: at}
}

func act(a coupon.Action, order string, at time.Time) store.TransitionParams {
	return store.TransitionParams{Action: a, OrderID: order, Reason: "suite-" + a.String(), Now: at}
}
