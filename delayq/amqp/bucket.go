package amqp

import (
	"fmt"
	"slices"
	"time"
)

// DefaultBuckets are the delays items wait in when Options name none.
var DefaultBuckets = []time.Duration{
	time.Second, 5 * time.Second, 30 * time.Second,
	5 * time.Minute, 30 * time.Minute, 2 * time.Hour, 24 * time.Hour,
}

// buckets are the delay queues' TTLs, shortest first.
type buckets []time.Duration

// newBuckets sorts ds and checks each is at least a millisecond, the
// precision of a TTL; none means DefaultBuckets.
func newBuckets(ds []time.Duration) (buckets, error) {
	if len(ds) == 0 {
		ds = DefaultBuckets
	}
	b := slices.Clone(ds)
	slices.Sort(b)
	b = slices.Compact(b)
	if b[0] < time.Millisecond || slices.ContainsFunc(b, func(d time.Duration) bool { return d%time.Millisecond != 0 }) {
		return nil, fmt.Errorf("delayq amqp: buckets must be whole milliseconds of at least 1ms, got %v", ds)
	}
	return b, nil
}

// fit returns the largest bucket not longer than rest, false if rest is
// shorter than every bucket.
func (b buckets) fit(rest time.Duration) (time.Duration, bool) {
	i, found := slices.BinarySearch(b, rest)
	if found {
		return b[i], true
	}
	if i == 0 {
		return 0, false
	}
	return b[i-1], true
}
