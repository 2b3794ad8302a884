package remind

import (
	"fmt"
	"slices"
	"sync"
	"time"
	_ "time/tzdata" // zones load on a machine without a zoneinfo database

	"github.com/lapsehq/lapse/coupon"
)

// User is what the policy knows of a coupon holder: how to reach them and
// when they last acted through lapse.
type User struct {
	ID string
	// Timezone is an IANA name ("Asia/Shanghai"); quiet hours and the
	// daily cap follow its wall clock. "" is UTC.
	Timezone string
	// Channels the user can be reached on; none means in_app only.
	Channels []Channel
	// LastActiveAt is the user's last claim, coupon action or order; zero
	// if they never acted.
	LastActiveAt time.Time
}

// Validate reports the first field of u's ID and profile (timezone,
// channels) out of range.
func (u User) Validate() error {
	if u.ID == "" {
		return &coupon.InvalidError{Field: "user_id", Reason: "must not be empty"}
	}
	if u.Timezone == "" {
		return &coupon.InvalidError{Field: "timezone", Reason: "must not be empty"}
	}
	if _, err := Zone(u.Timezone); err != nil {
		return &coupon.InvalidError{Field: "timezone", Reason: err.Error()}
	}
	names := make([]string, len(u.Channels))
	for i, ch := range u.Channels {
		names[i] = string(ch)
	}
	_, err := ParseChannels(names)
	return err
}

// Location is u's timezone, UTC if it does not load.
func (u User) Location() *time.Location {
	loc, err := Zone(u.Timezone)
	if err != nil {
		return time.UTC
	}
	return loc
}

func (u User) reachable(ch Channel) bool { return slices.Contains(u.Channels, ch) }

// quiet reports whether quiet hours apply to u: they hold back sms and
// push, and u can be reached on one of them.
func (u User) quiet() bool { return u.reachable(SMS) || u.reachable(Push) }

// zones caches loaded locations: loading one parses zone data.
var zones sync.Map

// Zone loads the IANA timezone name; "" is UTC. "Local", the machine's own
// zone, is refused: a user's zone must not depend on where lapse runs.
func Zone(name string) (*time.Location, error) {
	if name == "" {
		return time.UTC, nil
	}
	if loc, ok := zones.Load(name); ok {
		return loc.(*time.Location), nil
	}
	if name == "Local" {
		return nil, fmt.Errorf("%q is not an IANA timezone name", name)
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, fmt.Errorf("unknown IANA timezone %q", name)
	}
	zones.Store(name, loc)
	return loc, nil
}

// ByUser reports whether act is one a coupon's holder takes (lock, redeem,
// unlock, refund) and so marks them active. Void is an operator's; release
// and expire are the clock's.
func ByUser(act coupon.Action) bool {
	switch act {
	case coupon.Lock, coupon.Redeem, coupon.Unlock, coupon.Refund:
		return true
	}
	return false
}
