package coupon

import (
	"errors"
	"testing"
	"time"
)

func TestTemplateExpiresAt(t *testing.T) {
	t0 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	end := t0.Add(48 * time.Hour)
	cases := []struct {
		name     string
		endsAt   time.Time
		duration time.Duration
		claimed  time.Time
		want     time.Time
	}{
		{"ends_at only", end, 0, t0, end},
		{"duration only", time.Time{}, 72 * time.Hour, t0, t0.Add(72 * time.Hour)},
		{"duration shorter", end, time.Hour, t0, t0.Add(time.Hour)},
		{"ends_at caps duration", end, 72 * time.Hour, t0.Add(time.Hour), end},
	}
	for _, c := range cases {
		got := Template{EndsAt: c.endsAt, Duration: c.duration}.ExpiresAt(c.claimed)
		if !got.Equal(c.want) {
			t.Fatalf("%s: got %s, want %s", c.name, got, c.want)
		}
	}
}

func TestTemplateClaimable(t *testing.T) {
	start := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	tp := Template{StartsAt: start, EndsAt: start.Add(time.Hour)}
	cases := []struct {
		now  time.Time
		want error
	}{
		{start.Add(-time.Millisecond), ErrNotClaimable},
		{start, nil},
		{start.Add(time.Hour - time.Millisecond), nil},
		{start.Add(time.Hour), ErrNotClaimable},
	}
	for _, c := range cases {
		if got := tp.Claimable(c.now); !errors.Is(got, c.want) {
			t.Fatalf("Claimable(%s): got %v, want %v", c.now.Sub(start), got, c.want)
		}
	}
	open := Template{StartsAt: start, Duration: time.Hour}
	if err := open.Claimable(start.Add(1000 * time.Hour)); err != nil {
		t.Fatalf("duration-only template: got %v, want claimable", err)
	}
}

func TestTemplateValidate(t *testing.T) {
	now := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	good := Template{Name: "x", Value: 100, StartsAt: now, EndsAt: now.Add(time.Hour)}
	if err := good.Validate(now); err != nil {
		t.Fatalf("good template: got %v", err)
	}
	cases := []struct {
		field string
		edit  func(*Template)
	}{
		{"name", func(t *Template) { t.Name = "" }},
		{"value", func(t *Template) { t.Value = 0 }},
		{"min_spend", func(t *Template) { t.MinSpend = -1 }},
		{"validity", func(t *Template) { t.EndsAt = time.Time{} }},
		{"validity.duration", func(t *Template) { t.Duration = -time.Second }},
		{"validity.ends_at", func(t *Template) { t.EndsAt = now }},
		{"per_user_limit", func(t *Template) { t.PerUserLimit = -1 }},
		{"total", func(t *Template) { t.Total = -1 }},
		{"per_user_limit", func(t *Template) { t.PerUserLimit = 1e12 + 1 }},
		{"total", func(t *Template) { t.Total = 9223372036854775807 }},
		{"value", func(t *Template) { t.Value = 9223372036854775807 }},
		{"min_spend", func(t *Template) { t.MinSpend = 1e13 }},
		{"validity.duration", func(t *Template) { t.Duration = 999 * time.Microsecond }},
		{"name", func(t *Template) { t.Name = "   " }},
		{"reminders[0]", func(t *Template) { t.Reminders = []time.Duration{0} }},
		{"reminders[1]", func(t *Template) { t.Reminders = []time.Duration{time.Hour, time.Nanosecond} }},
	}
	for _, c := range cases {
		tp := good
		c.edit(&tp)
		var inv *InvalidError
		if err := tp.Validate(now); !errors.As(err, &inv) || inv.Field != c.field {
			t.Fatalf("%s: got %v, want invalid %s", c.field, err, c.field)
		}
	}
}

func TestTemplateClosedNotClaimable(t *testing.T) {
	start := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	tp := Template{StartsAt: start, Duration: time.Hour, ClosedAt: start.Add(time.Hour)}
	for _, now := range []time.Time{start, start.Add(2 * time.Hour)} {
		if err := tp.Claimable(now); !errors.Is(err, ErrTemplateClosed) || !errors.Is(err, ErrNotClaimable) {
			t.Fatalf("Claimable(%s) of a closed template: got %v, want ErrTemplateClosed, an ErrNotClaimable", now, err)
		}
	}
}

func TestTemplateChangeApply(t *testing.T) {
	tp := Template{ID: "tpl_1", Name: "a", Value: 100, Total: 10, Reminders: []time.Duration{time.Hour}, Version: 3}
	name, value, total := "b", int64(200), int64(0)
	leads := []time.Duration{time.Minute, 24 * time.Hour, time.Minute}
	got := TemplateChange{Name: &name, Value: &value, Total: &total, Reminders: &leads}.Apply(tp)
	if got.Name != "b" || got.Value != 200 || got.Total != 0 || len(got.Reminders) != 2 ||
		got.Reminders[0] != 24*time.Hour || got.Reminders[1] != time.Minute || got.ID != tp.ID || got.Version != 3 {
		t.Fatalf("Apply: got %+v", got)
	}
	if leads[0] != time.Minute {
		t.Fatalf("Apply sorted the change's own list: %v", leads)
	}
	if got := (TemplateChange{}).Apply(tp); got.Name != tp.Name || got.Total != tp.Total || len(got.Reminders) != 1 {
		t.Fatalf("empty change: got %+v, want %+v", got, tp)
	}
	none := []time.Duration{}
	if got := (TemplateChange{Reminders: &none}).Apply(tp); got.Reminders != nil {
		t.Fatalf("no reminders: got %v, want nil", got.Reminders)
	}
}

func TestTemplateChangeValidate(t *testing.T) {
	bad, zero, blank := int64(-1), int64(0), " "
	cases := []struct {
		c     TemplateChange
		field string
	}{
		{TemplateChange{}, ""},
		{TemplateChange{Name: &blank}, "name"},
		{TemplateChange{Value: &zero}, "value"},
		{TemplateChange{Total: &bad}, "total"},
		{TemplateChange{Total: &zero}, ""},
		{TemplateChange{Reminders: &[]time.Duration{-time.Hour}}, "reminders[0]"},
	}
	for _, c := range cases {
		err := c.c.Validate()
		var inv *InvalidError
		if (c.field == "" && err != nil) || (c.field != "" && (!errors.As(err, &inv) || inv.Field != c.field)) {
			t.Fatalf("%+v: got %v, want field %q", c.c, err, c.field)
		}
	}
}
