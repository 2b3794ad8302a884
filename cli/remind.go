package cli

import (
	"flag"
	"strings"

	"github.com/lapsehq/lapse/remind"
)

// remindFlags registers the reminder policy's flags on fs, with c's
// values as defaults, to be parsed into c.
func remindFlags(fs *flag.FlagSet, c *remind.Config) {
	fs.Func("reminders", "lead times, comma-separated, of templates that set none, e.g. 72h,24h (LAPSE_REMINDERS; default none)", func(s string) (err error) {
		c.Leads, err = remind.ParseLeads(s)
		return err
	})
	fs.DurationVar(&c.Window, "reminder-window", c.Window, "coupons of a user crossing a lead time within this of each other share one reminder (LAPSE_REMINDER_WINDOW)")
	fs.Func("quiet-hours", "HH:MM-HH:MM in each user's timezone when sms and push wait, or off (LAPSE_QUIET_HOURS; default "+c.Quiet.String()+")", func(s string) (err error) {
		c.Quiet, err = remind.ParseQuietHours(strings.TrimSpace(s))
		return err
	})
	fs.Int64Var(&c.SMSValue, "sms-threshold", c.SMSValue, "total coupon value (minor units) from which a reminder goes by sms (LAPSE_SMS_THRESHOLD)")
	fs.DurationVar(&c.Inactive, "sms-inactive", c.Inactive, "no sms to a user inactive for longer; 0 turns this off (LAPSE_SMS_INACTIVE)")
	fs.IntVar(&c.DailyCap, "daily-cap", c.DailyCap, "most reminders per user per local day; 0 is no cap (LAPSE_DAILY_CAP)")
}
