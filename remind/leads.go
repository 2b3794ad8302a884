package remind

import (
	"fmt"
	"strings"
	"time"

	"github.com/lapsehq/lapse/coupon"
)

// ParseLeads reads a comma-separated list of lead times ("72h,24h,30m"),
// each positive, and returns them longest first without repeats, at most
// coupon.MaxReminders of them. "" is none.
func ParseLeads(s string) ([]time.Duration, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var tp coupon.Template
	for _, f := range strings.Split(s, ",") {
		d, err := time.ParseDuration(strings.TrimSpace(f))
		if err != nil || d <= 0 {
			return nil, fmt.Errorf("lead time %q: want a positive duration like 24h", f)
		}
		tp.Reminders = append(tp.Reminders, d)
	}
	tp.SortReminders()
	if len(tp.Reminders) > coupon.MaxReminders {
		return nil, fmt.Errorf("%d lead times: at most %d", len(tp.Reminders), coupon.MaxReminders)
	}
	return tp.Reminders, nil
}
