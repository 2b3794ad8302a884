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
		if got := RestAfter(10*time.Millisecond, c.share); got != c.want {
			t.Errorf("share %g: rest %s after a 10ms batch, want %s", c.share, got, c.want)
		}
	}
}

// TestOperationShare: a share set is kept; unset, it is a quarter on a
// store with one writer and a half on the others.
func TestOperationShare(t *testing.T) {
	for _, c := range []struct {
		share     float64
		oneWriter bool
		want      float64
	}{{0, false, 0.5}, {0, true, 0.25}, {0.8, true, 0.8}, {1, false, 1}} {
		if got := OperationShare(c.share, c.oneWriter); got != c.want {
			t.Errorf("OperationShare(%g, one writer %v) = %g, want %g", c.share, c.oneWriter, got, c.want)
		}
	}
}
