package amqp

import (
	"testing"
	"time"
)

// TestFit: an item goes to the largest bucket not longer than the rest
// of its delay, and to none when the rest is shorter than every bucket.
func TestFit(t *testing.T) {
	b, err := newBuckets(nil)
	if err != nil {
		t.Fatalf("default buckets: %v", err)
	}
	for _, c := range []struct {
		rest time.Duration
		want time.Duration // 0: none
	}{
		{-time.Hour, 0},
		{0, 0},
		{999 * time.Millisecond, 0},
		{time.Second, time.Second},
		{4999 * time.Millisecond, time.Second},
		{5 * time.Second, 5 * time.Second},
		{29 * time.Minute, 5 * time.Minute},
		{2*time.Hour + time.Millisecond, 2 * time.Hour},
		{72 * time.Hour, 24 * time.Hour},
	} {
		got, ok := b.fit(c.rest)
		if ok != (c.want != 0) || got != c.want {
			t.Fatalf("fit(%s): got %s, %v, want %s", c.rest, got, ok, c.want)
		}
	}
}

// TestNewBuckets: buckets are sorted and deduplicated, and must be whole
// milliseconds of at least one.
func TestNewBuckets(t *testing.T) {
	b, err := newBuckets([]time.Duration{time.Minute, time.Second, time.Minute})
	if err != nil || len(b) != 2 || b[0] != time.Second || b[1] != time.Minute {
		t.Fatalf("newBuckets(1m, 1s, 1m): got %v, %v, want [1s 1m]", b, err)
	}
	for _, ds := range [][]time.Duration{{0}, {-time.Second}, {time.Second, 1500 * time.Microsecond}} {
		if b, err := newBuckets(ds); err == nil {
			t.Fatalf("newBuckets(%v): got %v and no error", ds, b)
		}
	}
}
