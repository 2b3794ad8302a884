package bench

import (
	"bytes"
	"strings"
	"testing"
)

// TestOpsWritePlot: the ops plot draws the coupons voided and extended,
// the users' p99 and the idle p99, and shades each operation's span in
// both panels.
func TestOpsWritePlot(t *testing.T) {
	r := OpsResult{Store: "sqlite", Coupons: 100, Idle: UserLoad{Writes: OpStats{Quantiles: Quantiles{P99: 0.002}}},
		Void: BulkRun{Start: 1, Seconds: 2}, Extend: BulkRun{Start: 4, Seconds: 1},
		voided:   []Point{{0, 0}, {3, 100}, {5, 100}},
		extended: []Point{{0, 0}, {3, 0}, {5, 100}},
		p99:      []Point{{0.1, 0.002}, {2, 0.004}, {4.5, 0.003}},
	}
	strokes := plotLines(t, r.WritePlot)
	for color, want := range map[string]int{colorVoid: 1, colorExtend: 1, colorUsers: 1, colorIdle: 1} {
		if strokes[color] != want {
			t.Fatalf("lines of %s: got %d, want %d", color, strokes[color], want)
		}
	}
	var b bytes.Buffer
	if err := r.WritePlot(&b); err != nil {
		t.Fatal(err)
	}
	for _, color := range []string{colorVoid, colorExtend} {
		if n := strings.Count(b.String(), `fill="`+color+`" fill-opacity`); n != 2 {
			t.Fatalf("bands of %s: got %d, want one per panel", color, n)
		}
	}
}
