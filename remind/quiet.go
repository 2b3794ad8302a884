package remind

import (
	"fmt"
	"strings"
	"time"
)

// QuietHours is a daily span of wall-clock time, from Start to End, in
// which reminders are not sent by sms or push. Start after End wraps
// midnight (22:00-08:00); Start equal to End means no quiet hours. Both
// are offsets from local midnight in whole minutes, under 24h.
type QuietHours struct {
	Start, End time.Duration
}

// BeforeQuiet is how long before quiet hours start a reminder goes out
// when waiting them out would be too late.
const BeforeQuiet = time.Minute

// ParseQuietHours reads "HH:MM-HH:MM" (24-hour clock), or "off" for none.
func ParseQuietHours(s string) (QuietHours, error) {
	if s == "off" {
		return QuietHours{}, nil
	}
	from, to, ok := strings.Cut(s, "-")
	start, err1 := parseClock(from)
	end, err2 := parseClock(to)
	if !ok || err1 != nil || err2 != nil {
		return QuietHours{}, fmt.Errorf("quiet hours %q: want HH:MM-HH:MM or off", s)
	}
	return QuietHours{Start: start, End: end}, nil
}

// parseClock reads "HH:MM" as an offset from midnight.
func parseClock(s string) (time.Duration, error) {
	t, err := time.Parse("15:04", s)
	if err != nil || len(s) != len("15:04") {
		return 0, fmt.Errorf("clock %q: want HH:MM", s)
	}
	return time.Duration(t.Hour())*time.Hour + time.Duration(t.Minute())*time.Minute, nil
}

// String writes q as ParseQuietHours reads it.
func (q QuietHours) String() string {
	if q.Start == q.End {
		return "off"
	}
	clock := func(d time.Duration) string { return fmt.Sprintf("%02d:%02d", int(d.Hours()), int(d.Minutes())%60) }
	return clock(q.Start) + "-" + clock(q.End)
}

// period returns the quiet hours containing t, on the wall clock of t's
// location, and whether t falls in any.
func (q QuietHours) period(t time.Time) (start, end time.Time, ok bool) {
	if q.Start == q.End {
		return start, end, false
	}
	h, m, s := t.Clock()
	clock := time.Duration(h)*time.Hour + time.Duration(m)*time.Minute + time.Duration(s)*time.Second + time.Duration(t.Nanosecond())
	switch {
	case q.Start < q.End && clock >= q.Start && clock < q.End:
		return wall(t, 0, q.Start), wall(t, 0, q.End), true
	case q.Start > q.End && clock >= q.Start:
		return wall(t, 0, q.Start), wall(t, 1, q.End), true
	case q.Start > q.End && clock < q.End:
		return wall(t, -1, q.Start), wall(t, 0, q.End), true
	}
	return start, end, false
}

// wall is the instant the wall clock of t's location reads clock, days
// after t's date. Across a daylight-saving change it is the wall time, not
// a fixed offset from midnight.
func wall(t time.Time, days int, clock time.Duration) time.Time {
	y, mo, d := t.Date()
	return time.Date(y, mo, d+days, int(clock/time.Hour), int(clock%time.Hour/time.Minute), 0, 0, t.Location())
}
