package storetest

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/input"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// An operator's list, change and close of templates.

// listTemplates walks the whole list, limit templates a page, calling
// between, if set, after each page.
func (f *fixture) listTemplates(limit int, between func(page int)) []coupon.Template {
	f.t.Helper()
	var all []coupon.Template
	after := ""
	for page := 0; ; page++ {
		got, err := f.s.Templates(f.ctx, storetype.TemplatesParams{After: after, Limit: limit})
		if err != nil {
			f.t.Fatalf("Templates(after %q): %v", after, err)
		}
		if len(got) > limit {
			f.t.Fatalf("Templates(after %q, limit %d): got %d", after, limit, len(got))
		}
		if len(got) == 0 {
			return all
		}
		all = append(all, got...)
		after = got[len(got)-1].ID
		if between != nil {
			between(page)
		}
	}
}

// templateAt reads a template as stored.
func (f *fixture) templateAt(id string) coupon.Template {
	f.t.Helper()
	info, err := f.s.Template(f.ctx, store.TemplateParams{ID: id, Now: t0})
	if err != nil {
		f.t.Fatalf("Template(%s): %v", id, err)
	}
	return info.Template
}

// change changes a template, which must succeed.
func (f *fixture) change(id string, c coupon.TemplateChange, now time.Time) coupon.Template {
	f.t.Helper()
	return get(f, "ChangeTemplate", f.s.ChangeTemplate, store.ChangeTemplateParams{ID: id, Change: c, Now: now})
}

// closeTemplate closes a template, which must succeed.
func (f *fixture) closeTemplate(id, reason string, now time.Time) coupon.Template {
	f.t.Helper()
	return get(f, "CloseTemplate", f.s.CloseTemplate, store.CloseTemplateParams{ID: id, Reason: reason, Now: now})
}

// wantTemplateEvents fails unless the template's events are exactly want,
// each a type and its data as JSON, at the times given.
func (f *fixture) wantTemplateEvents(what, id string, want [][2]string, at []time.Time) {
	f.t.Helper()
	got := f.eventsOf(id)
	if len(got) != len(want) {
		f.t.Fatalf("%s: events of %s: got %s, want %d", what, id, fmtEvents(got), len(want))
	}
	for i, e := range got {
		if e.Type != want[i][0] || string(e.Data) != want[i][1] || !e.Time.Equal(at[i]) {
			f.t.Fatalf("%s: event %d: got %s %s at %s, want %s %s at %s", what, i, e.Type, e.Data, fmtTime(e.Time),
				want[i][0], want[i][1], fmtTime(at[i]))
		}
	}
}

func ptr[T any](v T) *T { return &v }

// testTemplateList: pages of the list hold every template once, by ID,
// and a walk sees those created during it after the ones before.
func testTemplateList(t *testing.T, open opener) {
	f := newFixture(t, open)
	if got := f.listTemplates(3, nil); len(got) != 0 {
		t.Fatalf("list of an empty store: got %d templates", len(got))
	}
	var ids []string
	for i := range 7 { // all made in one millisecond: their IDs differ by their random part
		ids = append(ids, f.template(func(tp *coupon.Template) { tp.Name = fmt.Sprintf("t%d", i) }).ID)
	}
	closed := f.closeTemplate(ids[2], "", t0)
	slices.Sort(ids)
	got := f.listTemplates(3, nil)
	var gotIDs []string
	for _, tp := range got {
		gotIDs = append(gotIDs, tp.ID)
	}
	if !slices.Equal(gotIDs, ids) {
		t.Fatalf("list by pages of 3:\n got %v\nwant %v", gotIDs, ids)
	}
	for _, tp := range got {
		if tp.ID == closed.ID {
			f.wantTemplate("listed closed template", tp, closed)
		} else {
			f.wantTemplate("listed template", tp, f.templateAt(tp.ID))
		}
	}
	if all := f.listTemplates(1000, nil); len(all) != len(ids) {
		t.Fatalf("list in one page: got %d, want %d", len(all), len(ids))
	}
	// Templates created during a walk come after the ones before it, once.
	made := 0
	walked := f.listTemplates(2, func(page int) {
		if page < 2 {
			tp := coupon.Template{Name: "later", Value: 1, StartsAt: t0, Duration: time.Hour}
			later, err := f.s.CreateTemplate(f.ctx, store.CreateTemplateParams{Template: tp, Now: t0.Add(time.Duration(page+1) * time.Hour)})
			if err != nil {
				t.Fatalf("CreateTemplate during the walk: %v", err)
			}
			ids = append(ids, later.ID)
			made++
		}
	})
	gotIDs = gotIDs[:0]
	for _, tp := range walked {
		gotIDs = append(gotIDs, tp.ID)
	}
	if made != 2 || !slices.Equal(gotIDs, ids) {
		t.Fatalf("walk while creating %d:\n got %v\nwant %v", made, gotIDs, ids)
	}
	after, err := f.s.Templates(f.ctx, storetype.TemplatesParams{After: ids[len(ids)-1], Limit: 10})
	if err != nil || len(after) != 0 {
		t.Fatalf("page after the last: got %d (%v), want none", len(after), err)
	}
}

// testTemplateChange: each field changes, reads back, and makes one
// template.updated event naming what changed; a change to what is
// already there changes nothing and makes no event.
func testTemplateChange(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(func(tp *coupon.Template) { tp.Total = 10; tp.Reminders = []time.Duration{24 * time.Hour} })
	f.claim(tp.ID, "u1", t0)
	at := []time.Time{t0.Add(time.Minute), t0.Add(2 * time.Minute)}
	got := f.change(tp.ID, coupon.TemplateChange{
		Name: ptr("¥15 off"), Value: ptr[int64](1500), Total: ptr[int64](5),
		Reminders: &[]time.Duration{time.Hour, 48 * time.Hour, time.Hour},
	}, at[0])
	want := tp
	want.Name, want.Value, want.Total, want.Reminders, want.Version = "¥15 off", 1500, 5, []time.Duration{48 * time.Hour, time.Hour}, 2
	f.wantTemplate("changed", got, want)
	f.wantTemplate("read back", f.templateAt(tp.ID), want)

	// Only reminders, to none.
	got = f.change(tp.ID, coupon.TemplateChange{Reminders: &[]time.Duration{}}, at[1])
	want.Reminders, want.Version = nil, 3
	f.wantTemplate("reminders cleared", got, want)
	f.wantTemplate("reminders cleared, read back", f.templateAt(tp.ID), want)

	// Nothing new: no write, no event.
	for _, c := range []coupon.TemplateChange{{}, {Name: ptr("¥15 off"), Total: ptr[int64](5), Reminders: &[]time.Duration{}}} {
		f.wantTemplate("no change", f.change(tp.ID, c, t0.Add(time.Hour)), want)
	}
	f.wantTemplate("after no change", f.templateAt(tp.ID), want)
	f.wantTemplateEvents("changes", tp.ID, [][2]string{
		{store.EventTemplateUpdated, `{"from":{"name":"Singles' Day ¥10 off","value":1000,"total":10,"reminders":["24h"]},` +
			`"to":{"name":"¥15 off","value":1500,"total":5,"reminders":["48h","1h"]}}`},
		{store.EventTemplateUpdated, `{"from":{"reminders":["48h","1h"]},"to":{"reminders":[]}}`},
	}, at)
	// The coupon claimed before keeps working.
	c := f.userCoupons("u1", 0, t0)[0]
	f.do(c.ID, act(coupon.Redeem, "o1", t0.Add(time.Hour)))
}

// testTemplateChangeTotal: the total may not go below what is issued; at
// it, the template is sold out; unlimited again, it issues.
func testTemplateChangeTotal(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(nil) // unlimited
	for _, u := range []string{"u1", "u2", "u3"} {
		f.claim(tp.ID, u, t0)
	}
	before := f.snap(tp.ID, "u4", t0)
	for _, total := range []int64{1, 2} {
		_, err := f.s.ChangeTemplate(f.ctx, store.ChangeTemplateParams{ID: tp.ID, Change: coupon.TemplateChange{Total: &total, Name: ptr("x")}, Now: t0})
		var inv *input.InvalidError
		if !errors.As(err, &inv) || inv.Field != "total" {
			t.Fatalf("total %d below the 3 issued: got %v, want invalid total", total, err)
		}
		f.unchanged(fmt.Sprintf("refused total %d", total), tp.ID, "u4", t0, before)
		f.wantTemplate("after a refused total", f.templateAt(tp.ID), tp)
	}
	f.change(tp.ID, coupon.TemplateChange{Total: ptr[int64](3)}, t0)
	_, err := f.s.Claim(f.ctx, store.ClaimParams{TemplateID: tp.ID, UserID: "u4", Now: t0})
	f.wantErr("claim at the new total", err, coupon.ErrSoldOut)
	got, err := f.s.Issue(f.ctx, store.IssueParams{TemplateID: tp.ID, Users: store.UserList([]string{"u5"}), Now: t0})
	if err != nil || got.Issued != 0 || got.RefusedCount[coupon.ErrSoldOut] != 1 {
		t.Fatalf("issue at the new total: got %+v (%v), want u5 refused sold-out", got, err)
	}
	f.change(tp.ID, coupon.TemplateChange{Total: ptr[int64](4)}, t0)
	f.claim(tp.ID, "u4", t0)
	f.change(tp.ID, coupon.TemplateChange{Total: ptr[int64](0)}, t0)
	f.claim(tp.ID, "u5", t0)
	f.wantCounts("after the changes", f.counts(tp.ID, t0), map[coupon.State]int64{coupon.Unused: 5})
}

// testTemplateChangeRefused: a change out of range, or of no template, is
// refused and changes nothing.
func testTemplateChangeRefused(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(nil)
	f.claim(tp.ID, "u1", t0)
	before := f.snap(tp.ID, "u1", t0)
	cases := []struct {
		c     coupon.TemplateChange
		field string
	}{
		{coupon.TemplateChange{Name: ptr("  ")}, "name"},
		{coupon.TemplateChange{Name: ptr("ok"), Value: ptr[int64](0)}, "value"},
		{coupon.TemplateChange{Value: ptr[int64](input.MaxMoney + 1)}, "value"},
		{coupon.TemplateChange{Total: ptr[int64](-1)}, "total"},
		{coupon.TemplateChange{Reminders: &[]time.Duration{time.Hour, 0}}, "reminders[1]"},
		{coupon.TemplateChange{Reminders: &[]time.Duration{time.Microsecond}}, "reminders[0]"},
	}
	for _, c := range cases {
		_, err := f.s.ChangeTemplate(f.ctx, store.ChangeTemplateParams{ID: tp.ID, Change: c.c, Now: t0})
		var inv *input.InvalidError
		if !errors.As(err, &inv) || inv.Field != c.field {
			t.Fatalf("change %+v: got %v, want invalid %s", c.c, err, c.field)
		}
	}
	_, err := f.s.ChangeTemplate(f.ctx, store.ChangeTemplateParams{ID: "tpl_nosuchtemplate", Change: coupon.TemplateChange{Name: ptr("x")}, Now: t0})
	f.wantErr("change of no template", err, storetype.ErrNotFound)
	_, err = f.s.CloseTemplate(f.ctx, store.CloseTemplateParams{ID: "tpl_nosuchtemplate", Now: t0})
	f.wantErr("close of no template", err, storetype.ErrNotFound)
	f.unchanged("refused changes", tp.ID, "u1", t0, before)
	f.wantTemplate("after refused changes", f.templateAt(tp.ID), tp)
}

// testTemplateChangeIdempotent: a change or a close retried under its key
// replays its first answer and writes nothing more.
func testTemplateChangeIdempotent(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(nil)
	change := store.ChangeTemplateParams{ID: tp.ID, Change: coupon.TemplateChange{Value: ptr[int64](700)}, Now: t0, Idem: scopedIdem("chg-1", t0)}
	first, err := f.s.ChangeTemplate(f.ctx, change)
	if err != nil {
		t.Fatalf("first change: %v", err)
	}
	closing := store.CloseTemplateParams{ID: tp.ID, Reason: "leaked", Now: t0, Idem: scopedIdem("close-1", t0)}
	closed, err := f.s.CloseTemplate(f.ctx, closing)
	if err != nil {
		t.Fatalf("first close: %v", err)
	}
	before := f.snap(tp.ID, "u1", t0)
	change.Now, closing.Now = t0.Add(time.Minute), t0.Add(time.Minute)
	_, err = f.s.ChangeTemplate(f.ctx, change)
	f.wantReplay("retried change", err, first, t0)
	_, err = f.s.CloseTemplate(f.ctx, closing)
	f.wantReplay("retried close", err, closed, t0)
	f.unchanged("retries", tp.ID, "u1", t0, before)
	if n := len(f.eventsOf(tp.ID)); n != 2 {
		t.Fatalf("events of the template: got %d, want one change and one close", n)
	}
}

// testTemplateClose: a closed template refuses claims and issuance,
// changing nothing, while its coupons lock, redeem and unlock as before;
// the close makes one template.closed event.
func testTemplateClose(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(nil)
	c1, c2, c3 := f.claim(tp.ID, "u1", t0), f.claim(tp.ID, "u2", t0), f.claim(tp.ID, "u3", t0)
	at := t0.Add(time.Minute)
	closed := f.closeTemplate(tp.ID, "campaign leaked", at)
	want := tp
	want.ClosedAt, want.Version = at, 2
	f.wantTemplate("closed", closed, want)
	f.wantTemplate("closed, read back", f.templateAt(tp.ID), want)
	f.wantTemplateEvents("close", tp.ID, [][2]string{
		{store.EventTemplateClosed, `{"from":"open","reason":"campaign leaked","issued":3}`},
	}, []time.Time{at})

	before := f.snap(tp.ID, "u4", at)
	_, err := f.s.Claim(f.ctx, store.ClaimParams{TemplateID: tp.ID, UserID: "u4", Now: at})
	f.wantErr("claim of a closed template", err, coupon.ErrTemplateClosed)
	f.wantErr("claim of a closed template", err, coupon.ErrNotClaimable)
	_, err = f.s.Issue(f.ctx, store.IssueParams{TemplateID: tp.ID, Users: store.UserList([]string{"u4", "u5"}), Now: at})
	f.wantErr("issue of a closed template", err, coupon.ErrTemplateClosed)
	f.unchanged("refused claim and issue", tp.ID, "u4", at, before)

	// Closing again changes nothing: the first close stands.
	f.wantTemplate("closed twice", f.closeTemplate(tp.ID, "again", at.Add(time.Hour)), want)
	f.unchanged("closed twice", tp.ID, "u4", at, before)

	// Its coupons live on.
	f.do(c1.ID, lock("o1", at, 15*time.Minute))
	f.do(c1.ID, act(coupon.Redeem, "o1", at))
	f.do(c2.ID, lock("o2", at, 15*time.Minute))
	f.do(c2.ID, act(coupon.Unlock, "o2", at))
	f.do(c3.ID, act(coupon.Redeem, "o3", at))
	f.wantCounts("after using its coupons", f.counts(tp.ID, at), map[coupon.State]int64{coupon.Used: 2, coupon.Unused: 1})

	// It can still be renamed, and stays closed.
	renamed := f.change(tp.ID, coupon.TemplateChange{Name: ptr("closed campaign")}, at)
	if !renamed.ClosedAt.Equal(at) {
		t.Fatalf("renamed closed template: closed_at %s, want %s", fmtTime(renamed.ClosedAt), fmtTime(at))
	}
}

// testTemplateCloseIdempotent: closing a template twice under two keys
// answers the first close both times, with one event.
func testTemplateCloseIdempotent(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(nil)
	var got []coupon.Template
	for i, now := range []time.Time{t0, t0.Add(time.Second)} {
		tp, err := f.s.CloseTemplate(f.ctx, store.CloseTemplateParams{ID: tp.ID, Now: now, Idem: scopedIdem(fmt.Sprintf("close-%d", i), now)})
		if err != nil {
			t.Fatalf("close %d: %v", i, err)
		}
		got = append(got, tp)
	}
	f.wantTemplate("second close", got[1], got[0])
	if evs := f.eventsOf(tp.ID); len(evs) != 1 {
		t.Fatalf("events: got %s, want one template.closed", fmtEvents(evs))
	}
}

// testTemplateCloseDuringIssue: a close between two batches of an
// issuance stops it at the next batch, which issues nothing; what the
// batches before issued stays.
func testTemplateCloseDuringIssue(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(nil)
	users := func(yield func(string, error) bool) {
		for i := range 6 {
			if i == 2 { // the first batch has committed: it is read before the second batch starts
				f.closeTemplate(tp.ID, "", t0)
			}
			if !yield(fmt.Sprintf("u%d", i), nil) {
				return
			}
		}
	}
	_, err := f.s.Issue(f.ctx, store.IssueParams{TemplateID: tp.ID, Users: users, Now: t0, BatchSize: 2})
	f.wantErr("issue closed under way", err, coupon.ErrTemplateClosed)
	f.wantCounts("after the stopped issue", f.counts(tp.ID, t0), map[coupon.State]int64{coupon.Unused: 2})
	for i, want := range []int{1, 1, 0, 0, 0, 0} {
		if got := len(f.userCoupons(fmt.Sprintf("u%d", i), 0, t0)); got != want {
			t.Fatalf("u%d holds %d coupons, want %d", i, got, want)
		}
	}
}

// testTemplateChangeRemindersAhead: new reminders are planned for the
// coupons claimed after the change; those planned before stay as they
// were, and a value changed meanwhile is the one a reminder shows.
func testTemplateChangeRemindersAhead(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.leadTemplate(48*time.Hour, 1000, 24*time.Hour)
	before := f.claim(tp.ID, "u1", t0)
	f.change(tp.ID, coupon.TemplateChange{Value: ptr[int64](700), Reminders: &[]time.Duration{2 * time.Hour}}, t0)
	after := f.claim(tp.ID, "u2", t0)
	for _, c := range []struct {
		at     time.Time
		user   string
		lead   string
		coupon string
	}{
		{t0.Add(24 * time.Hour), "u1", "24h", before.ID},
		{t0.Add(46 * time.Hour), "u2", "2h", after.ID},
	} {
		rs := f.sendAt(c.at)
		if len(rs) != 1 || rs[0].data.UserID != c.user || rs[0].data.Lead != c.lead ||
			len(rs[0].data.Coupons) != 1 || rs[0].data.Coupons[0].ID != c.coupon || rs[0].data.Coupons[0].Value != 700 {
			t.Fatalf("reminders at %s: got %+v, want %s's %s reminder of %s worth 700", fmtTime(c.at), rs, c.user, c.lead, c.coupon)
		}
	}
}

// testTemplateChangeDuringClaims: a total lowered while claims run holds:
// either the change is refused (more were issued already) or no more than
// the new total are ever issued.
func testTemplateChangeDuringClaims(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(nil)
	const users, total = 40, 20
	var (
		wg        sync.WaitGroup
		mu        sync.Mutex
		claimed   int64
		changeErr error
	)
	for i := range users {
		wg.Go(func() {
			_, err := f.s.Claim(f.ctx, store.ClaimParams{TemplateID: tp.ID, UserID: fmt.Sprintf("u%d", i), Now: t0})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				claimed++
			case !errors.Is(err, coupon.ErrSoldOut):
				t.Errorf("claim: %v", err)
			}
		})
		if i == users/4 {
			wg.Go(func() {
				_, err := f.s.ChangeTemplate(f.ctx, store.ChangeTemplateParams{ID: tp.ID, Change: coupon.TemplateChange{Total: ptr[int64](total)}, Now: t0})
				mu.Lock()
				defer mu.Unlock()
				changeErr = err
			})
		}
	}
	wg.Wait()
	var inv *input.InvalidError
	switch {
	case changeErr == nil && claimed > total:
		t.Fatalf("total lowered to %d, yet %d claimed", total, claimed)
	case changeErr == nil && f.templateAt(tp.ID).Total != total:
		t.Fatalf("change accepted, total %d", f.templateAt(tp.ID).Total)
	case changeErr != nil && (!errors.As(changeErr, &inv) || claimed != users):
		t.Fatalf("change: %v with %d claimed; want it refused as invalid only once more than %d were issued", changeErr, claimed, total)
	}
	if got := f.counts(tp.ID, t0)[coupon.Unused]; got != claimed {
		t.Fatalf("unused count %d, claimed %d", got, claimed)
	}
	var d store.TemplateUpdatedData
	for _, e := range f.eventsOf(tp.ID) {
		if err := json.Unmarshal(e.Data, &d); err != nil || d.To.Total == nil || *d.To.Total != total {
			t.Fatalf("event %s %s: want the change to total %d", e.Type, e.Data, total)
		}
	}
}
