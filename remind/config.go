package remind

import (
	"fmt"
	"time"
)

// Config is the reminder policy. Default returns the service's defaults.
type Config struct {
	// Leads are the lead times, longest first, of templates that set
	// none; nil reminds nothing for them.
	Leads []time.Duration
	// Window is how far apart the crossings of one user's coupons may lie
	// and still share one reminder of a lead.
	Window time.Duration
	// Quiet holds back sms and push for users reachable by them.
	Quiet QuietHours
	// SMSValue is the total value (minor units) at or above which a
	// reminder goes by sms.
	SMSValue int64
	// Inactive: a user who has not acted for longer gets no sms; 0 turns
	// the rule off.
	Inactive time.Duration
	// DailyCap is the most reminders a user receives per day of their own
	// timezone; 0 means no cap.
	DailyCap int
}

// Default is the service's policy: windows of an hour, quiet from 22:00 to
// 08:00, sms from ¥50, none to users inactive for 30 days, three
// reminders a day, and no lead times for templates that set none.
func Default() Config {
	return Config{
		Window:   time.Hour,
		Quiet:    QuietHours{Start: 22 * time.Hour, End: 8 * time.Hour},
		SMSValue: 5000,
		Inactive: 30 * 24 * time.Hour,
		DailyCap: 3,
	}
}

// Validate reports the first setting of c out of range.
func (c Config) Validate() error {
	for _, d := range c.Leads {
		if d <= 0 {
			return fmt.Errorf("reminder lead times must be positive, got %s", d)
		}
	}
	switch {
	case c.Window < 0:
		return fmt.Errorf("reminder window must not be negative, got %s", c.Window)
	case c.Inactive < 0:
		return fmt.Errorf("sms inactivity must not be negative, got %s", c.Inactive)
	case c.DailyCap < 0:
		return fmt.Errorf("daily cap must not be negative, got %d", c.DailyCap)
	case c.Quiet.Start < 0 || c.Quiet.Start >= 24*time.Hour || c.Quiet.End < 0 || c.Quiet.End >= 24*time.Hour:
		return fmt.Errorf("quiet hours must lie within a day, got %s to %s", c.Quiet.Start, c.Quiet.End)
	}
	return nil
}

// LeadsFor returns the lead times of a template that sets leads: its own,
// or the default ones.
func (c Config) LeadsFor(leads []time.Duration) []time.Duration {
	if len(leads) > 0 {
		return leads
	}
	return c.Leads
}

// Joinable bounds the reminders a coupon crossing its lead at x may join:
// those whose coupons all cross within [lo, hi], so that the span with x
// stays within the window.
func (c Config) Joinable(x time.Time) (lo, hi time.Time) {
	return x.Add(-c.Window), x.Add(c.Window)
}

// DueAt is when a reminder goes out to u: at first, the first crossing of
// its coupons, unless that falls in quiet hours and u is reachable by sms
// or push. Then it goes out when they end, if that is before expiry (the
// earliest expiry of its coupons), and otherwise BeforeQuiet before they
// start, which may be in the past: at once.
func (c Config) DueAt(first, expiry time.Time, u User) time.Time {
	if !u.quiet() {
		return first
	}
	start, end, ok := c.Quiet.period(first.In(u.Location()))
	switch {
	case !ok:
		return first
	case end.Before(expiry):
		return end.UTC()
	}
	return start.Add(-BeforeQuiet).UTC()
}

// PlannedDue is when a reminder planned at now goes out: DueAt for a
// reminder of lead whose first coupon crosses it at first, and so expires
// at first + lead, the earliest of them; but never before now. (Too late
// to go out before quiet hours that have begun, it goes out at once.)
func (c Config) PlannedDue(first time.Time, lead time.Duration, u User, now time.Time) time.Time {
	due := c.DueAt(first, first.Add(lead), u)
	if due.Before(now) {
		return now
	}
	return due
}

// Channel picks how a reminder of coupons worth total reaches u at now:
// sms if total reaches SMSValue and u is reachable by sms and active;
// otherwise push if u is reachable by it; otherwise in_app.
func (c Config) Channel(u User, total int64, now time.Time) Channel {
	switch {
	case total >= c.SMSValue && u.reachable(SMS) && !c.inactive(u, now):
		return SMS
	case u.reachable(Push):
		return Push
	}
	return InApp
}

// inactive reports whether u has not acted for longer than Inactive; a
// user who never acted has not.
func (c Config) inactive(u User, now time.Time) bool {
	return c.Inactive > 0 && (u.LastActiveAt.IsZero() || now.Sub(u.LastActiveAt) > c.Inactive)
}

// Capped reports whether a user who received sent reminders today may
// receive no more.
func (c Config) Capped(sent int) bool { return c.DailyCap > 0 && sent >= c.DailyCap }

// Day returns the day of u's timezone that now falls in, as [start, end).
func Day(now time.Time, u User) (start, end time.Time) {
	local := now.In(u.Location())
	return wall(local, 0, 0), wall(local, 1, 0)
}
