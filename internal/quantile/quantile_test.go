package quantile

import (
	"testing"
	"time"
)

func TestOf(t *testing.T) {
	ms := func(v ...int) []time.Duration {
		out := make([]time.Duration, len(v))
		for i, x := range v {
			out[i] = time.Duration(x) * time.Millisecond
		}
		return out
	}
	hundred := make([]int, 100)
	for i := range hundred {
		hundred[i] = i + 1
	}
	cases := []struct {
		sorted []time.Duration
		q      float64
		want   time.Duration
	}{
		{nil, 0.99, 0},
		{ms(7), 0.5, 7 * time.Millisecond},
		{ms(1, 2, 3, 4), 0.5, 2 * time.Millisecond},
		{ms(hundred...), 0.99, 99 * time.Millisecond},
		{ms(hundred...), 1, 100 * time.Millisecond},
	}
	for _, c := range cases {
		if got := Of(c.sorted, c.q); got != c.want {
			t.Fatalf("Of(%d values, %v): got %v, want %v", len(c.sorted), c.q, got, c.want)
		}
	}
}
