package sqlite

import (
	"context"
	"testing"
	"testing/synctest"
	"time"
)

// TestGate: a background transaction waits while a user's write waits or
// runs, goes as soon as the last one ends, and goes anyway after maxYield.
func TestGate(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := newGate()
		ctx := context.Background()
		start := time.Now()
		g.yield(ctx)
		if d := time.Since(start); d != 0 {
			t.Fatalf("yield with no users: waited %v, want 0", d)
		}

		a, b := g.enter(), g.enter()
		go func() {
			time.Sleep(10 * time.Millisecond)
			a()
			time.Sleep(10 * time.Millisecond)
			b()
		}()
		start = time.Now()
		g.yield(ctx)
		if d := time.Since(start); d != 20*time.Millisecond {
			t.Fatalf("yield while two users write: waited %v, want 20ms", d)
		}

		done := g.enter()
		start = time.Now()
		g.yield(ctx)
		if d := time.Since(start); d != maxYield {
			t.Fatalf("yield to a user who stays: waited %v, want %v", d, maxYield)
		}
		done()
	})
}
