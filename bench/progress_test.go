package bench

import (
	"bytes"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// TestBarLines: a bar on what is not a terminal writes whole lines, no
// carriage return redrawing one: one as it starts, one every lineEvery,
// and one with its note as it finishes.
func TestBarLines(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var out bytes.Buffer
		var n atomic.Int64
		b := StartBar(&out, "storm", 100, n.Load)
		synctest.Wait() // the first line drawn
		n.Store(40)
		time.Sleep(2*lineEvery + lineEvery/2)
		n.Store(100)
		b.Finish("done")
		if strings.Contains(out.String(), "\r") {
			t.Fatalf("a carriage return off a terminal:\n%q", out.String())
		}
		lines := strings.SplitAfter(out.String(), "\n")
		want := []string{"storm  [..............................]   0% 0/100   0.0s\n",
			"storm  [############..................]  40% 40/100  10.0s\n",
			"storm  [############..................]  40% 40/100  20.0s\n",
			"storm  [##############################] 100% 100/100  25.0s  done\n", ""}
		if len(lines) != len(want) {
			t.Fatalf("got %d lines, want %d:\n%s", len(lines)-1, len(want)-1, out.String())
		}
		for i := range want {
			if lines[i] != want[i] {
				t.Errorf("line %d: got %q, want %q", i, lines[i], want[i])
			}
		}
	})
}
