package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

// TestWatchStaysWithinTotal: the bar counts up to the total each poll
// says, not the one it started with, and never past it; each draw, in
// place on a terminal or a line elsewhere, is checked.
func TestWatchStaysWithinTotal(t *testing.T) {
	polls := [][2]int64{{1, 4}, {6, 5}, {7, 7}}
	var out bytes.Buffer
	i := 0
	err := watch(context.Background(), &out, "void", 4, time.Millisecond, func(context.Context) (int64, int64, bool, error) {
		p := polls[i]
		i++
		return p[0], p[1], i == len(polls), nil
	})
	if err != nil {
		t.Fatalf("watch: %v", err)
	}
	draws := strings.FieldsFunc(out.String(), func(r rune) bool { return r == '\r' || r == '\n' })
	last := draws[len(draws)-1]
	if !strings.Contains(last, "100% 7/7") || !strings.HasSuffix(last, "done") || !strings.HasSuffix(out.String(), "\n") {
		t.Fatalf("last draw: %q, want 100%% 7/7 done", last)
	}
	for _, d := range draws {
		if strings.Contains(d, "6/5") || strings.Contains(d, "7/4") || strings.Contains(d, "7/5") {
			t.Fatalf("a draw passed its total: %q", d)
		}
	}
}
