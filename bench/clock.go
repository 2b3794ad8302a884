package bench

import (
	"sync/atomic"
	"time"
)

// clock is the bench's one clock: the real time plus an offset, at the
// store's millisecond precision.
type clock struct{ offset atomic.Int64 }

// Now returns the bench's time.
func (c *clock) Now() time.Time {
	return time.Now().Add(time.Duration(c.offset.Load())).UTC().Truncate(time.Millisecond)
}

// jumpTo moves the clock so that it reads t now.
func (c *clock) jumpTo(t time.Time) {
	c.offset.Store(int64(t.Sub(time.Now())))
}

// real returns the real time at which the clock reads t.
func (c *clock) real(t time.Time) time.Time {
	return t.Add(-time.Duration(c.offset.Load()))
}
