package remind

import (
	"fmt"
	"slices"

	"github.com/lapsehq/lapse/coupon"
)

// Channel is a way to reach a user.
type Channel string

// The channels, dearest first.
const (
	// SMS costs money: it is kept for coupons worth it and users who act.
	SMS Channel = "sms"
	// Push reaches the user's device.
	Push Channel = "push"
	// InApp waits in the app; every user can be reminded in_app.
	InApp Channel = "in_app"
)

// Channels lists every channel.
var Channels = []Channel{SMS, Push, InApp}

// ParseChannels reads channel names as a user registers them: each one of
// Channels, none twice.
func ParseChannels(names []string) ([]Channel, error) {
	out := make([]Channel, 0, len(names))
	for i, n := range names {
		ch := Channel(n)
		switch {
		case !slices.Contains(Channels, ch):
			return nil, &coupon.InvalidError{Field: fmt.Sprintf("channels[%d]", i), Reason: "must be one of sms, push, in_app"}
		case slices.Contains(out, ch):
			return nil, &coupon.InvalidError{Field: fmt.Sprintf("channels[%d]", i), Reason: "listed twice"}
		}
		out = append(out, ch)
	}
	return out, nil
}
