package sqlite

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// TestCheckpointer: a passive checkpoint runs on the tick after a commit
// and not otherwise, and a failed one is tried again on the next tick;
// the WAL is truncated once shrinkAfter passed without a commit, once,
// again on the next tick if that failed, and not while commits go on.
func TestCheckpointer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var (
			mu    sync.Mutex
			calls []string
			fail  bool
		)
		got := func() []string {
			mu.Lock()
			defer mu.Unlock()
			return slices.Clone(calls)
		}
		failNext := func() {
			mu.Lock()
			defer mu.Unlock()
			fail = true
		}
		want := func(what string, w ...string) {
			t.Helper()
			if g := got(); !slices.Equal(g, w) {
				t.Fatalf("%s: checkpoints %q, want %q", what, g, w)
			}
		}
		start := time.Now()
		tick := func(n int) string { return fmt.Sprint(time.Duration(n) * checkpointEvery) }
		c := newCheckpointer(func(_ context.Context, mode string) error {
			mu.Lock()
			defer mu.Unlock()
			calls = append(calls, mode+" "+fmt.Sprint(time.Since(start)))
			if fail {
				fail = false
				return errors.New("busy")
			}
			return nil
		}, func() error { return nil })
		quiet := int(shrinkAfter / checkpointEvery)

		time.Sleep(3 * checkpointEvery)
		want("without a commit")
		time.Sleep(checkpointEvery / 2)
		c.committed()
		c.committed()
		time.Sleep(3 * checkpointEvery)
		want("after two commits", passive+" "+tick(4))

		failNext()
		c.committed()
		time.Sleep(2 * checkpointEvery)
		want("after a failure", passive+" "+tick(4), passive+" "+tick(7), passive+" "+tick(8))

		// Commits every other tick: never quiet for shrinkAfter.
		for range quiet {
			c.committed()
			time.Sleep(2 * checkpointEvery)
		}
		if g := got(); len(g) != 3+quiet || slices.ContainsFunc(g, func(s string) bool { return s[:len(truncate)] == truncate }) {
			t.Fatalf("while commits go on: checkpoints %q, want %d passive ones", g, 3+quiet)
		}
		last := 8 + 2*quiet - 1 // the tick of the last passive checkpoint
		failNext()
		time.Sleep(time.Duration(quiet+4) * checkpointEvery)
		g := got()
		if w := []string{truncate + " " + tick(last+quiet), truncate + " " + tick(last+quiet+1)}; !slices.Equal(g[3+quiet:], w) {
			t.Fatalf("once quiet: checkpoints %q, want %q (the first fails)", g[3+quiet:], w)
		}
		if err := c.stop(); err != nil {
			t.Fatalf("stop: %v", err)
		}
	})
}
