package bench

import (
	"time"

	"github.com/lapsehq/lapse/timer"
)

// newWheel returns the timing wheel the bench runs lapse's engine with,
// the one lapse serve runs: 10ms ticks, 4096 slots.
func newWheel(now func() time.Time) *timer.Wheel {
	return timer.NewWheel(10*time.Millisecond, 4096, now)
}
