package cli

import (
	"flag"
	"io"
	"slices"
	"testing"
	"time"

	"github.com/lapsehq/lapse/remind"
)

func TestRemindFlags(t *testing.T) {
	t.Setenv("LAPSE_QUIET_HOURS", "23:00-07:30")
	c := remind.Default()
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	remindFlags(fs, &c)
	args := []string{"--reminders", "1h,72h", "--reminder-window", "30m", "--sms-threshold", "100", "--sms-inactive", "0", "--daily-cap", "1"}
	if err := parse(fs, args, io.Discard); err != nil {
		t.Fatalf("parse: %v", err)
	}
	want := remind.Config{
		Leads: []time.Duration{72 * time.Hour, time.Hour}, Window: 30 * time.Minute,
		Quiet:    remind.QuietHours{Start: 23 * time.Hour, End: 7*time.Hour + 30*time.Minute},
		SMSValue: 100, Inactive: 0, DailyCap: 1,
	}
	if !slices.Equal(c.Leads, want.Leads) || c.Window != want.Window || c.Quiet != want.Quiet ||
		c.SMSValue != want.SMSValue || c.Inactive != want.Inactive || c.DailyCap != want.DailyCap {
		t.Fatalf("parsed: got %+v, want %+v", c, want)
	}

	d := remind.Default()
	fs = flag.NewFlagSet("serve", flag.ContinueOnError)
	remindFlags(fs, &d)
	if err := parse(fs, []string{"--quiet-hours", "off"}, io.Discard); err != nil {
		t.Fatalf("parse --quiet-hours off: %v", err)
	}
	def := remind.Default()
	if d.Quiet != (remind.QuietHours{}) || d.Window != def.Window || d.DailyCap != def.DailyCap || d.Leads != nil {
		t.Fatalf("defaults with quiet hours off: got %+v", d)
	}
}
