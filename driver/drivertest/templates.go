package drivertest

import (
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/storetype"
)

// templateTests test the template rows: insert and read, the page by ID,
// the compare-and-set of a change and the issued count.
var templateTests = []test{
	{"InsertRead", testTemplateInsertRead},
	{"PageByID", testTemplatesPage},
	{"SetGuards", testSetTemplate},
	{"TakeIssues", testTakeIssues},
}

// newTemplate returns a template of ID id, 24h coupons, total total.
func newTemplate(id string, total int64) coupon.Template {
	return coupon.Template{ID: id, Name: "t " + id, Value: 100, MinSpend: 50, StartsAt: t0, Duration: 24 * time.Hour,
		PerUserLimit: 2, Total: total, Reminders: []time.Duration{2 * time.Hour, time.Hour}, CreatedAt: t0}
}

// insertTemplates stores tps in one transaction.
func (f *fixture) insertTemplates(tps ...coupon.Template) {
	f.t.Helper()
	insert(f, "InsertTemplate", driver.Executor.InsertTemplate, tps...)
}

// wantTemplate fails unless got has want's stored fields.
func (f *fixture) wantTemplate(what string, got, want coupon.Template) {
	f.t.Helper()
	want2 := func(field string, g, w any) {
		f.t.Helper()
		if g != w {
			f.t.Fatalf("%s: %s: got %v, want %v", what, field, g, w)
		}
	}
	want2("ID", got.ID, want.ID)
	want2("Name", got.Name, want.Name)
	want2("Value", got.Value, want.Value)
	want2("MinSpend", got.MinSpend, want.MinSpend)
	want2("Duration", got.Duration, want.Duration)
	want2("PerUserLimit", got.PerUserLimit, want.PerUserLimit)
	want2("Total", got.Total, want.Total)
	want2("Reminders", len(got.Reminders), len(want.Reminders))
	for i := range got.Reminders {
		want2("Reminders", got.Reminders[i], want.Reminders[i])
	}
	wantTime(f.t, what+": StartsAt", got.StartsAt, want.StartsAt)
	wantTime(f.t, what+": EndsAt", got.EndsAt, want.EndsAt)
	wantTime(f.t, what+": CreatedAt", got.CreatedAt, want.CreatedAt)
	wantTime(f.t, what+": ClosedAt", got.ClosedAt, want.ClosedAt)
}

// testTemplateInsertRead: a template reads back as inserted, in a
// transaction, and with TemplateInfo, through the driver's Executor and
// in a transaction, with its counts and due unused coupons at the now
// passed.
func testTemplateInsertRead(f *fixture) {
	tp := newTemplate("tp1", 10)
	tp.EndsAt = t0.Add(48 * time.Hour)
	f.insertTemplates(tp)
	f.tx(func(tx driver.Executor) {
		got, err := tx.Template(f.ctx, tp.ID)
		ok(f.t, "Template", err)
		f.wantTemplate("Template", got, tp)
		got, err = tx.ClaimTemplate(f.ctx, tp.ID)
		ok(f.t, "ClaimTemplate", err)
		f.wantTemplate("ClaimTemplate", got, tp)
	})
	f.insertCoupons(newCoupon("c1", tp.ID, "u1", t0), newCoupon("c2", tp.ID, "u1", t0.Add(time.Hour)))
	f.tx(func(tx driver.Executor) {
		ok(f.t, "Count", tx.Count(f.ctx, driver.CountParams{TemplateID: tp.ID, State: coupon.Unused, N: 3}))
		ok(f.t, "Count", tx.Count(f.ctx, driver.CountParams{TemplateID: tp.ID, State: coupon.Unused, N: -1}))
	})
	for _, tc := range []struct {
		now time.Time
		due int64
	}{{t0, 0}, {t0.Add(24 * time.Hour), 1}, {t0.Add(25 * time.Hour), 2}} {
		p := driver.TemplateInfoParams{ID: tp.ID, Now: tc.now}
		check := func(e driver.Executor) {
			f.t.Helper()
			info, due, err := e.TemplateInfo(f.ctx, p)
			ok(f.t, "TemplateInfo", err)
			f.wantTemplate("TemplateInfo", info.Template, tp)
			want(f.t, "due unused at "+tc.now.String(), due, tc.due)
			want(f.t, "unused count", info.Counts[coupon.Unused], 2)
		}
		check(f.d.Executor())
		f.tx(check)
	}
}

// testTemplatesPage: Templates pages by ID in byte order, after After,
// up to Limit.
func testTemplatesPage(f *fixture) {
	f.insertTemplates(newTemplate("tp_b", 0), newTemplate("tp_B", 0), newTemplate("tp_a", 0), newTemplate("tp_c", 0))
	for _, tc := range []struct {
		after string
		limit int
		want  []string
	}{
		{"", 10, []string{"tp_B", "tp_a", "tp_b", "tp_c"}},
		{"", 2, []string{"tp_B", "tp_a"}},
		{"tp_a", 2, []string{"tp_b", "tp_c"}},
		{"tp_c", 2, nil},
	} {
		got, err := f.d.Executor().Templates(f.ctx, storetype.TemplatesParams{After: tc.after, Limit: tc.limit})
		ok(f.t, "Templates", err)
		wantIDs(f.t, "Templates after "+tc.after, got, templateID, tc.want...)
	}
}

// testSetTemplate: SetTemplate writes next with the version plus one,
// and changes nothing from a stale version or below the issued count.
func testSetTemplate(f *fixture) {
	tp := newTemplate("tp1", 10)
	f.insertTemplates(tp)
	f.tx(func(tx driver.Executor) {
		took, err := tx.TakeIssues(f.ctx, driver.TakeIssuesParams{TemplateID: tp.ID, N: 5})
		ok(f.t, "TakeIssues", err)
		want(f.t, "TakeIssues", took, true)
		tp, err = tx.Template(f.ctx, tp.ID)
		ok(f.t, "Template", err)
	})
	next := tp
	next.Name, next.Value, next.Total, next.Reminders, next.ClosedAt = "renamed", 200, 6, []time.Duration{time.Hour}, t0.Add(time.Hour)
	for _, tc := range []struct {
		name      string
		from      coupon.Template
		total     int64
		wantSet   bool
		wantStore coupon.Template
	}{
		{"below issued", tp, 4, false, tp},
		{"applies", tp, 6, true, next},
		{"stale version", tp, 6, false, next},
	} {
		n := next
		n.Total = tc.total
		f.tx(func(tx driver.Executor) {
			set, err := tx.SetTemplate(f.ctx, driver.SetTemplateParams{From: tc.from, Next: n})
			ok(f.t, tc.name, err)
			want(f.t, tc.name+": set", set, tc.wantSet)
			got, err := tx.Template(f.ctx, tp.ID)
			ok(f.t, "Template", err)
			f.wantTemplate(tc.name, got, tc.wantStore)
		})
	}
	f.tx(func(tx driver.Executor) {
		got, err := tx.Template(f.ctx, tp.ID)
		ok(f.t, "Template", err)
		want(f.t, "version after one change", got.Version, tp.Version+1)
	})
}

// testTakeIssues: TakeIssues counts issues up to the total and refuses
// what would pass it; a total of 0 is unlimited.
func testTakeIssues(f *fixture) {
	f.insertTemplates(newTemplate("tp1", 3), newTemplate("tp0", 0))
	for _, tc := range []struct {
		id     string
		n      int64
		took   bool
		issued int64
	}{
		{"tp1", 2, true, 2},
		{"tp1", 2, false, 2},
		{"tp1", 1, true, 3},
		{"tp0", 1000, true, 1000},
	} {
		f.tx(func(tx driver.Executor) {
			took, err := tx.TakeIssues(f.ctx, driver.TakeIssuesParams{TemplateID: tc.id, N: tc.n})
			ok(f.t, "TakeIssues", err)
			want(f.t, "TakeIssues", took, tc.took)
			issued, err := tx.IssuedCount(f.ctx, tc.id)
			ok(f.t, "IssuedCount", err)
			want(f.t, "IssuedCount", issued, tc.issued)
		})
	}
}

func templateID(tp coupon.Template) string { return tp.ID }
