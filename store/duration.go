package store

import (
	"strings"
	"time"
)

// FormatDuration writes d as the API writes durations: a Go duration
// string without zero tails, "72h", "30m", "1h30m" rather than "72h0m0s".
func FormatDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") { // "30m0s", "72h0m0s"
		s = s[:len(s)-2]
	}
	if strings.HasSuffix(s, "h0m") { // "72h0m"
		s = s[:len(s)-2]
	}
	return s
}
