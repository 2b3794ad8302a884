package remind_test

import (
	"fmt"
	"time"

	"github.com/lapsehq/lapse/remind"
)

// A coupon crosses its 24h lead at 23:00 in Shanghai, inside the user's
// quiet hours: its reminder waits for 08:00 and, worth ¥60, goes by sms.
func ExampleConfig_DueAt() {
	policy := remind.Default()
	u := remind.User{ID: "u1", Timezone: "Asia/Shanghai", Channels: []remind.Channel{remind.SMS, remind.Push}}
	shanghai, _ := remind.Zone(u.Timezone)
	expires := time.Date(2026, 11, 12, 23, 0, 0, 0, shanghai)
	crossing := expires.Add(-24 * time.Hour)
	u.LastActiveAt = crossing.Add(-time.Hour)

	due := policy.DueAt(crossing, expires, u)
	fmt.Println(due.In(shanghai).Format("Jan 2 15:04"), policy.Channel(u, 6000, due))
	// Output: Nov 12 08:00 sms
}
