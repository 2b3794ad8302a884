package storetest

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

var templateTests = []test{
	{"RoundTrip", testTemplateRoundTrip},
	{"NotFound", testTemplateNotFound},
	{"Counts", testTemplateCounts},
	{"CountsLazyAtTheEdge", testTemplateCountsLazyEdge},
	{"CountsDuringDrain", testTemplateCountsDuringDrain},
	{"List", testTemplateList},
	{"Change", testTemplateChange},
	{"ChangeTotal", testTemplateChangeTotal},
	{"ChangeRefused", testTemplateChangeRefused},
	{"ChangeIdempotent", testTemplateChangeIdempotent},
	{"Close", testTemplateClose},
	{"CloseIdempotent", testTemplateCloseIdempotent},
	{"CloseDuringIssue", testTemplateCloseDuringIssue},
	{"ChangeRemindersAhead", testTemplateChangeRemindersAhead},
	{"ChangeDuringClaims", testTemplateChangeDuringClaims},
}

// testTemplateRoundTrip stores templates of each validity kind and reads
// every field back.
func testTemplateRoundTrip(t *testing.T, open opener) {
	f := newFixture(t, open)
	created := t0.Add(-48 * time.Hour)
	cases := []struct {
		name string
		tp   coupon.Template
	}{
		{"ends_at and duration", coupon.Template{
			Name: "Singles' Day ¥50 off", Value: 5000, MinSpend: 29900,
			StartsAt: t0.Add(-time.Hour), EndsAt: t0.Add(72 * time.Hour), Duration: 36*time.Hour + 250*time.Millisecond,
			PerUserLimit: 3, Total: 1_000_000,
			Reminders: []time.Duration{24 * time.Hour, 90 * time.Minute, 1500 * time.Millisecond},
		}},
		{"ends_at only", coupon.Template{
			Name: "weekend", Value: 100, StartsAt: t0.Add(123 * time.Millisecond), EndsAt: t0.Add(48*time.Hour + 7*time.Millisecond),
		}},
		{"duration only", coupon.Template{
			Name: "welcome", Value: 1, MinSpend: 0, StartsAt: t0, Duration: 30 * 24 * time.Hour,
			Reminders: []time.Duration{time.Hour},
		}},
	}
	ids := map[string]bool{}
	for _, c := range cases {
		if err := c.tp.Validate(created); err != nil {
			t.Fatalf("%s: suite template invalid: %v", c.name, err)
		}
		got, err := f.s.CreateTemplate(f.ctx, store.CreateTemplateParams{Template: c.tp, Now: created})
		if err != nil {
			t.Fatalf("%s: CreateTemplate: %v", c.name, err)
		}
		if got.ID == "" {
			t.Fatalf("%s: CreateTemplate: got empty ID", c.name)
		}
		if ids[got.ID] {
			t.Fatalf("%s: CreateTemplate: ID %s assigned twice", c.name, got.ID)
		}
		ids[got.ID] = true
		want := c.tp
		want.ID, want.CreatedAt, want.Version = got.ID, created, 1
		f.wantTemplate(c.name+": created", got, want)
		info, err := f.s.Template(f.ctx, store.TemplateParams{ID: got.ID, Now: t0})
		if err != nil {
			t.Fatalf("%s: Template: %v", c.name, err)
		}
		f.wantTemplate(c.name+": read back", info.Template, want)
		f.wantCounts(c.name+": counts of a new template", info.Counts, nil)
	}
}

// wantTemplate fails unless got and want agree on every field.
func (f *fixture) wantTemplate(what string, got, want coupon.Template) {
	f.t.Helper()
	same := got.ID == want.ID && got.Name == want.Name && got.Value == want.Value && got.MinSpend == want.MinSpend &&
		got.StartsAt.Equal(want.StartsAt) && got.EndsAt.Equal(want.EndsAt) && got.Duration == want.Duration &&
		got.PerUserLimit == want.PerUserLimit && got.Total == want.Total &&
		slices.Equal(got.Reminders, want.Reminders) && got.CreatedAt.Equal(want.CreatedAt) &&
		got.ClosedAt.Equal(want.ClosedAt) && got.Version == want.Version
	if !same {
		f.t.Fatalf("%s:\n got %+v\nwant %+v", what, got, want)
	}
}

func testTemplateNotFound(t *testing.T, open opener) {
	f := newFixture(t, open)
	f.template(nil) // the store is not empty
	_, err := f.s.Template(f.ctx, store.TemplateParams{ID: "tpl_nosuchtemplate", Now: t0})
	f.wantErr("Template(unknown)", err, storetype.ErrNotFound)
}

// testTemplateCounts walks coupons of one template into every state and
// checks the counts, lazy check included, before and after a drain.
func testTemplateCounts(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(nil) // 24h from claim
	// Claimed at t0 (due t0+24h): c1 to lock, c5 to expire.
	// Claimed at t0+1h (due t0+25h): c6, lazily expired later.
	// Claimed at t0+2h (due t0+26h): c2 to redeem, c3 to void, c4 stays.
	c1 := f.claim(tp.ID, "u1", t0)
	c5 := f.claim(tp.ID, "u5", t0)
	c6 := f.claim(tp.ID, "u6", t0.Add(time.Hour))
	c2 := f.claim(tp.ID, "u2", t0.Add(2*time.Hour))
	c3 := f.claim(tp.ID, "u3", t0.Add(2*time.Hour))
	f.claim(tp.ID, "u4", t0.Add(2*time.Hour))
	f.wantCounts("after claims", f.counts(tp.ID, t0.Add(2*time.Hour)), map[coupon.State]int64{coupon.Unused: 6})

	f.do(c1.ID, lock("o1", t0.Add(3*time.Hour), 10*time.Minute))
	f.do(c2.ID, act(coupon.Redeem, "o2", t0.Add(3*time.Hour)))
	f.do(c3.ID, act(coupon.Void, "", t0.Add(3*time.Hour)))
	f.wantCounts("after lock, redeem, void", f.counts(tp.ID, t0.Add(3*time.Hour)),
		map[coupon.State]int64{coupon.Unused: 3, coupon.Locked: 1, coupon.Used: 1, coupon.Voided: 1})

	// Before any drain: c5 and c6 are past expires_at and read expired; c1
	// is past both its lock TTL and expires_at but stays locked.
	late := t0.Add(25 * time.Hour)
	lazy := map[coupon.State]int64{coupon.Unused: 1, coupon.Expired: 2, coupon.Locked: 1, coupon.Used: 1, coupon.Voided: 1}
	f.wantCounts("lazy, before any drain", f.counts(tp.ID, late), lazy)

	// Drain at t0+24h stores c5 expired; counting it again would double it.
	d, err := f.s.ExpireDue(f.ctx, storetype.DueParams{Now: t0.Add(24 * time.Hour), Limit: 100})
	if err != nil {
		t.Fatalf("ExpireDue: %v", err)
	}
	f.wantTimes("ExpireDue due", d.Due, []time.Time{c5.ExpiresAt})
	f.wantCounts("lazy, after the drain", f.counts(tp.ID, late), lazy)
	f.wantCounts("at the drain's now", f.counts(tp.ID, t0.Add(24*time.Hour)),
		map[coupon.State]int64{coupon.Unused: 2, coupon.Expired: 1, coupon.Locked: 1, coupon.Used: 1, coupon.Voided: 1})
	if got := f.coupon(c6.ID).Status; got != coupon.Unused {
		t.Fatalf("c6 stored status: got %s, want unused (only read as expired)", got)
	}
}

// testTemplateCountsLazyEdge checks that the lazy check in the counts turns
// at expires_at exactly.
func testTemplateCountsLazyEdge(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.template(nil)
	c := f.claim(tp.ID, "u1", t0.Add(1234*time.Millisecond))
	f.wantCounts("1ms before expires_at", f.counts(tp.ID, c.ExpiresAt.Add(-time.Millisecond)),
		map[coupon.State]int64{coupon.Unused: 1})
	f.wantCounts("at expires_at", f.counts(tp.ID, c.ExpiresAt), map[coupon.State]int64{coupon.Expired: 1})
}

// testTemplateCountsDuringDrain reads a template's counts while drains
// move its coupons: as the lazy check already reads every due coupon as
// expired, the counts must not move at all, whatever a read interleaves
// with.
func testTemplateCountsDuringDrain(t *testing.T, open opener) {
	f := newFixture(t, open)
	tp := f.durationTemplate() // 1h
	const n = 100
	for i := range n {
		f.claim(tp.ID, fmt.Sprintf("u%d", i), t0.Add(-time.Hour+time.Duration(i)*time.Millisecond))
	}
	now := t0.Add(time.Hour)
	want := map[coupon.State]int64{coupon.Expired: n}
	done := make(chan error, 1)
	go func() {
		for {
			d, err := f.s.ExpireDue(f.ctx, storetype.DueParams{Now: now, Limit: 1})
			if err != nil || len(d.Due) == 0 {
				done <- err
				return
			}
		}
	}()
	var bad []string
	for reads, drained := 0, false; !drained || reads < 10; reads++ {
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("ExpireDue: %v", err)
			}
			drained = true
		default:
		}
		info, err := f.s.Template(f.ctx, store.TemplateParams{ID: tp.ID, Now: now})
		if err != nil {
			t.Fatalf("Template during the drain: %v", err)
		}
		if info.Counts[coupon.Expired] != n || info.Counts[coupon.Unused] != 0 {
			bad = append(bad, fmtCounts(info.Counts))
		}
	}
	if len(bad) > 0 {
		t.Fatalf("counts read during the drain: %d reads got %v, want %s", len(bad), bad[:min(len(bad), 3)], fmtCounts(want))
	}
}
