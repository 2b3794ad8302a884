package remind

import (
	"testing"
	"time"

	"github.com/lapsehq/lapse/coupon"
)

// at reads a wall-clock time in a zone.
func at(t *testing.T, zone, clock string) time.Time {
	t.Helper()
	loc, err := Zone(zone)
	if err != nil {
		t.Fatalf("zone %s: %v", zone, err)
	}
	v, err := time.ParseInLocation("2006-01-02 15:04", clock, loc)
	if err != nil {
		t.Fatalf("parse %s: %v", clock, err)
	}
	return v
}

func TestDueAtQuietHours(t *testing.T) {
	pushUser := func(zone string) User { return User{Timezone: zone, Channels: []Channel{Push}} }
	night := QuietHours{Start: 22 * time.Hour, End: 8 * time.Hour}
	// first, expiry and want are wall-clock times in zone.
	cases := []struct {
		name                string
		quiet               QuietHours
		u                   User
		zone                string
		first, expiry, want string
	}{
		{"outside quiet hours: at the crossing", night, pushUser("UTC"), "UTC", "2026-11-11 21:59", "2026-11-12 21:59", "2026-11-11 21:59"},
		{"at the quiet end: not quiet", night, pushUser("UTC"), "UTC", "2026-11-12 08:00", "2026-11-13 08:00", "2026-11-12 08:00"},
		{"evening: to the end, next morning", night, pushUser("UTC"), "UTC", "2026-11-11 23:00", "2026-11-12 23:00", "2026-11-12 08:00"},
		{"at the quiet start: quiet", night, pushUser("UTC"), "UTC", "2026-11-11 22:00", "2026-11-12 22:00", "2026-11-12 08:00"},
		{"after midnight: to the end, same morning", night, pushUser("UTC"), "UTC", "2026-11-12 03:00", "2026-11-13 03:00", "2026-11-12 08:00"},
		{"user's timezone: 23:00 in Shanghai is 15:00 UTC", night, pushUser("Asia/Shanghai"), "Asia/Shanghai", "2026-11-11 23:00", "2026-11-12 23:00", "2026-11-12 08:00"},
		{"03:00 UTC, quiet in UTC, is 11:00 in Shanghai", night, pushUser("Asia/Shanghai"), "UTC", "2026-11-12 03:00", "2026-11-13 03:00", "2026-11-12 03:00"},
		{"expiry before the end: before the start", night, pushUser("UTC"), "UTC", "2026-11-11 23:00", "2026-11-12 07:00", "2026-11-11 21:59"},
		{"expiry at the end: before the start", night, pushUser("UTC"), "UTC", "2026-11-12 03:00", "2026-11-12 08:00", "2026-11-11 21:59"},
		{"in_app only: quiet hours do not apply", night, User{Timezone: "UTC"}, "UTC", "2026-11-11 23:00", "2026-11-12 23:00", "2026-11-11 23:00"},
		{"sms only: quiet hours apply", night, User{Timezone: "UTC", Channels: []Channel{SMS}}, "UTC", "2026-11-11 23:00", "2026-11-12 23:00", "2026-11-12 08:00"},
		{"daytime quiet hours, no wrap", QuietHours{Start: 12 * time.Hour, End: 14 * time.Hour}, pushUser("UTC"), "UTC", "2026-11-11 13:00", "2026-11-12 13:00", "2026-11-11 14:00"},
		{"daytime quiet hours, before them", QuietHours{Start: 12 * time.Hour, End: 14 * time.Hour}, pushUser("UTC"), "UTC", "2026-11-11 11:00", "2026-11-12 13:00", "2026-11-11 11:00"},
		{"off", QuietHours{}, pushUser("UTC"), "UTC", "2026-11-11 23:00", "2026-11-12 23:00", "2026-11-11 23:00"},
		// New York springs forward at 02:00 on 2026-03-08: the wall clock
		// reads 08:00 five hours after midnight, not six.
		{"daylight saving: the end is 08:00 wall time", night, pushUser("America/New_York"), "America/New_York", "2026-03-08 01:00", "2026-03-09 01:00", "2026-03-08 08:00"},
	}
	for _, c := range cases {
		first, expiry, want := at(t, c.zone, c.first), at(t, c.zone, c.expiry), at(t, c.zone, c.want)
		cfg := Default()
		cfg.Quiet = c.quiet
		if got := cfg.DueAt(first, expiry, c.u); !got.Equal(want) {
			t.Fatalf("%s: got %s, want %s", c.name, got, want.UTC())
		}
		if got := cfg.PlannedDue(first, expiry.Sub(first), c.u, want); !got.Equal(want) {
			t.Fatalf("%s: PlannedDue: got %s, want %s", c.name, got, want.UTC())
		}
		if late := want.Add(time.Minute); !cfg.PlannedDue(first, expiry.Sub(first), c.u, late).Equal(late) {
			t.Fatalf("%s: PlannedDue a minute after: got %s, want that minute", c.name, cfg.PlannedDue(first, expiry.Sub(first), c.u, late))
		}
	}
}

func TestChannel(t *testing.T) {
	now := at(t, "UTC", "2026-11-11 12:00")
	active, stale := now.Add(-time.Hour), now.Add(-30*24*time.Hour-time.Millisecond)
	all := []Channel{SMS, Push, InApp}
	cases := []struct {
		name  string
		u     User
		total int64
		want  Channel
	}{
		{"at the threshold: sms", User{Channels: all, LastActiveAt: active}, 5000, SMS},
		{"below it: push", User{Channels: all, LastActiveAt: active}, 4999, Push},
		{"worth sms, no sms channel: push", User{Channels: []Channel{Push}, LastActiveAt: active}, 9000, Push},
		{"worth sms, sms only, below: in_app", User{Channels: []Channel{SMS}, LastActiveAt: active}, 10, InApp},
		{"no channel: in_app", User{LastActiveAt: active}, 9000, InApp},
		{"inactive just over 30 days: push", User{Channels: all, LastActiveAt: stale}, 9000, Push},
		{"inactive exactly 30 days: still sms", User{Channels: all, LastActiveAt: now.Add(-30 * 24 * time.Hour)}, 9000, SMS},
		{"never active: no sms", User{Channels: []Channel{SMS, InApp}}, 9000, InApp},
	}
	for _, c := range cases {
		if got := Default().Channel(c.u, c.total, now); got != c.want {
			t.Fatalf("%s: got %s, want %s", c.name, got, c.want)
		}
	}
	off := Default()
	off.Inactive = 0
	if got := off.Channel(User{Channels: all}, 9000, now); got != SMS {
		t.Fatalf("inactivity rule off, never active: got %s, want sms", got)
	}
}

func TestCapped(t *testing.T) {
	cases := []struct {
		cap, sent int
		want      bool
	}{
		{3, 0, false}, {3, 2, false}, {3, 3, true}, {3, 4, true}, {1, 1, true}, {0, 1000, false},
	}
	for _, c := range cases {
		cfg := Default()
		cfg.DailyCap = c.cap
		if got := cfg.Capped(c.sent); got != c.want {
			t.Fatalf("cap %d, sent %d: got %v, want %v", c.cap, c.sent, got, c.want)
		}
	}
}

func TestDay(t *testing.T) {
	cases := []struct {
		zone       string
		now        time.Time
		start, end time.Time
	}{
		{"UTC", at(t, "UTC", "2026-11-11 23:59"), at(t, "UTC", "2026-11-11 00:00"), at(t, "UTC", "2026-11-12 00:00")},
		{"Asia/Shanghai", at(t, "UTC", "2026-11-11 16:00"), at(t, "Asia/Shanghai", "2026-11-12 00:00"), at(t, "Asia/Shanghai", "2026-11-13 00:00")},
		{"Asia/Shanghai", at(t, "UTC", "2026-11-11 15:59"), at(t, "Asia/Shanghai", "2026-11-11 00:00"), at(t, "Asia/Shanghai", "2026-11-12 00:00")},
		// A 23-hour day.
		{"America/New_York", at(t, "America/New_York", "2026-03-08 12:00"), at(t, "America/New_York", "2026-03-08 00:00"), at(t, "America/New_York", "2026-03-09 00:00")},
	}
	for _, c := range cases {
		start, end := Day(c.now, User{Timezone: c.zone})
		if !start.Equal(c.start) || !end.Equal(c.end) {
			t.Fatalf("%s %s: got [%s, %s), want [%s, %s)", c.zone, c.now, start, end, c.start, c.end)
		}
	}
}

func TestJoinable(t *testing.T) {
	x := at(t, "UTC", "2026-11-11 12:00")
	lo, hi := Default().Joinable(x)
	if !lo.Equal(x.Add(-time.Hour)) || !hi.Equal(x.Add(time.Hour)) {
		t.Fatalf("Joinable(%s): got [%s, %s], want an hour either side", x, lo, hi)
	}
}

func TestLeadsFor(t *testing.T) {
	cfg := Default()
	cfg.Leads = []time.Duration{24 * time.Hour}
	own := []time.Duration{72 * time.Hour, time.Hour}
	if got := cfg.LeadsFor(own); len(got) != 2 || got[0] != own[0] {
		t.Fatalf("template's own leads: got %v, want %v", got, own)
	}
	if got := cfg.LeadsFor(nil); len(got) != 1 || got[0] != 24*time.Hour {
		t.Fatalf("template without leads: got %v, want the default [24h]", got)
	}
}

func TestDrop(t *testing.T) {
	now := at(t, "UTC", "2026-11-11 12:00")
	live := coupon.Coupon{Status: coupon.Unused, ExpiresAt: now.Add(time.Second)}
	cases := []struct {
		name     string
		c        coupon.Coupon
		reminded bool
		want     string
	}{
		{"unused", live, false, ""},
		{"already reminded of this lead", live, true, DropReminded},
		{"used", coupon.Coupon{Status: coupon.Used, ExpiresAt: live.ExpiresAt}, false, "used"},
		{"locked", coupon.Coupon{Status: coupon.Locked, ExpiresAt: live.ExpiresAt}, false, "locked"},
		{"voided", coupon.Coupon{Status: coupon.Voided, ExpiresAt: live.ExpiresAt}, false, "voided"},
		{"expired", coupon.Coupon{Status: coupon.Expired, ExpiresAt: now}, false, "expired"},
		{"unused at expires_at", coupon.Coupon{Status: coupon.Unused, ExpiresAt: now}, false, "expired"},
	}
	for _, c := range cases {
		if got := Drop(c.c, c.reminded, now); got != c.want {
			t.Fatalf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

func TestByUser(t *testing.T) {
	want := map[coupon.Action]bool{coupon.Lock: true, coupon.Redeem: true, coupon.Unlock: true, coupon.Refund: true}
	for _, act := range coupon.Actions {
		if got := ByUser(act); got != want[act] {
			t.Fatalf("ByUser(%s): got %v, want %v", act, got, want[act])
		}
	}
}

func TestConfigValidate(t *testing.T) {
	cases := []struct {
		name string
		edit func(*Config)
		ok   bool
	}{
		{"default", func(*Config) {}, true},
		{"no window, no cap, no inactivity rule, no quiet hours", func(c *Config) { *c = Config{} }, true},
		{"negative window", func(c *Config) { c.Window = -time.Minute }, false},
		{"negative cap", func(c *Config) { c.DailyCap = -1 }, false},
		{"negative inactivity", func(c *Config) { c.Inactive = -time.Hour }, false},
		{"quiet past midnight", func(c *Config) { c.Quiet.End = 25 * time.Hour }, false},
		{"zero lead", func(c *Config) { c.Leads = []time.Duration{time.Hour, 0} }, false},
	}
	for _, c := range cases {
		cfg := Default()
		c.edit(&cfg)
		if err := cfg.Validate(); (err == nil) != c.ok {
			t.Fatalf("%s: got %v, want ok=%v", c.name, err, c.ok)
		}
	}
}
