package sqlite

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// TestCheckpointer: a checkpoint runs on the tick after a commit and not
// otherwise, and a failed one is tried again on the next tick.
func TestCheckpointer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var (
			mu    sync.Mutex
			calls []time.Duration
			fail  bool
		)
		got := func() []time.Duration {
			mu.Lock()
			defer mu.Unlock()
			return slices.Clone(calls)
		}
		start := time.Now()
		c := newCheckpointer(func(context.Context) error {
			mu.Lock()
			defer mu.Unlock()
			calls = append(calls, time.Since(start))
			if fail {
				fail = false
				return errors.New("busy")
			}
			return nil
		}, func() error { return nil })
		time.Sleep(3 * checkpointEvery)
		if calls := got(); len(calls) != 0 {
			t.Fatalf("checkpoints without a commit: got %v, want none", calls)
		}
		time.Sleep(checkpointEvery / 2)
		c.committed()
		c.committed()
		time.Sleep(3 * checkpointEvery)
		if calls := got(); len(calls) != 1 || calls[0] != 4*checkpointEvery {
			t.Fatalf("checkpoints after two commits: got %v, want one at 4 ticks", calls)
		}
		mu.Lock()
		fail = true
		mu.Unlock()
		c.committed()
		time.Sleep(3 * checkpointEvery)
		if calls := got(); len(calls) != 3 || calls[1] != 7*checkpointEvery || calls[2] != 8*checkpointEvery {
			t.Fatalf("checkpoints after a failure: got %v, want at 7 and 8 ticks", calls)
		}
		if err := c.stop(); err != nil {
			t.Fatalf("stop: %v", err)
		}
	})
}
