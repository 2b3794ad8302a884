package engine

import (
	"testing"
	"time"
)

// TestRestAfter: a worker at share s spends s of its time in batches.
func TestRestAfter(t *testing.T) {
	for _, c := range []struct {
		share float64
		want  time.Duration
	}{{1, 0}, {0.5, 10 * time.Millisecond}, {0.25, 30 * time.Millisecond}} {
		if got := restAfter(10*time.Millisecond, c.share); got != c.want {
			t.Errorf("share %g: rest %s after a 10ms batch, want %s", c.share, got, c.want)
		}
	}
}
