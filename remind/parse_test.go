package remind

import (
	"slices"
	"testing"
	"time"
)

func TestParseLeads(t *testing.T) {
	cases := []struct {
		in   string
		want []time.Duration
		ok   bool
	}{
		{"", nil, true},
		{"24h", []time.Duration{24 * time.Hour}, true},
		{"30m, 72h,24h,30m", []time.Duration{72 * time.Hour, 24 * time.Hour, 30 * time.Minute}, true},
		{"24h,", nil, false},
		{"-1h", nil, false},
		{"0s", nil, false},
		{"tomorrow", nil, false},
	}
	for _, c := range cases {
		got, err := ParseLeads(c.in)
		if (err == nil) != c.ok || !slices.Equal(got, c.want) {
			t.Fatalf("ParseLeads(%q): got %v (%v), want %v ok=%v", c.in, got, err, c.want, c.ok)
		}
	}
}

// fuzzParse fuzzes parse from seed: whatever it accepts, check passes.
func fuzzParse[T any](f *testing.F, seed string, parse func(string) (T, error), check func(t *testing.T, s string, got T)) {
	f.Add(seed)
	f.Fuzz(func(t *testing.T, s string) {
		if got, err := parse(s); err == nil {
			check(t, s, got)
		}
	})
}

func FuzzParseLeads(f *testing.F) {
	fuzzParse(f, "72h,24h,30m", ParseLeads, func(t *testing.T, s string, leads []time.Duration) {
		for i, d := range leads {
			if d <= 0 || (i > 0 && d >= leads[i-1]) {
				t.Fatalf("%q: got %v, want positive lead times, longest first, no repeats", s, leads)
			}
		}
	})
}

func FuzzParseQuietHours(f *testing.F) {
	fuzzParse(f, "22:00-08:00", ParseQuietHours, func(t *testing.T, s string, q QuietHours) {
		if q.Start < 0 || q.Start >= 24*time.Hour || q.End < 0 || q.End >= 24*time.Hour {
			t.Fatalf("%q: got %+v, want clock times within a day", s, q)
		}
		back, err := ParseQuietHours(q.String())
		if err != nil || back != q {
			t.Fatalf("%q: %v does not read back (%v, %v)", s, q, back, err)
		}
	})
}
