// Package delayqtest holds the checks the tests of every delay queue
// share.
package delayqtest

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/lapsehq/lapse/delayq"
)

// Claimer is what the checks need of a delay queue.
type Claimer interface {
	Claim(ctx context.Context, shard int, now time.Time, limit int) ([]delayq.Item, error)
}

// ClaimOnceConcurrently claims shard 0 at now from each of qs at once, 17
// items at a time, until each finds nothing, and fails t unless they got
// disjoint items whose kinds are exactly want.
func ClaimOnceConcurrently(t testing.TB, qs []Claimer, now time.Time, want map[string]bool) {
	t.Helper()
	var wg sync.WaitGroup
	got := make([][]delayq.Item, len(qs))
	errs := make([]error, len(qs))
	for i, q := range qs {
		wg.Go(func() {
			for {
				c, err := q.Claim(context.Background(), 0, now, 17)
				if err != nil || len(c) == 0 {
					errs[i] = err
					return
				}
				got[i] = append(got[i], c...)
			}
		})
	}
	wg.Wait()
	seen := map[string]bool{}
	for i := range got {
		if errs[i] != nil {
			t.Fatalf("claimer %d: %v", i, errs[i])
		}
		for _, it := range got[i] {
			if seen[it.Kind] || !want[it.Kind] {
				t.Fatalf("claimer %d got %v: claimed twice or not wanted", i, it)
			}
			seen[it.Kind] = true
		}
	}
	if len(seen) != len(want) {
		t.Fatalf("claimed %d items, want %d", len(seen), len(want))
	}
}

// CheckItems fails t unless got holds the same items as want, in order.
func CheckItems(t testing.TB, what string, got, want []delayq.Item) {
	t.Helper()
	if !slices.EqualFunc(got, want, func(a, b delayq.Item) bool {
		return a.Kind == b.Kind && a.Shard == b.Shard && a.Due.Equal(b.Due)
	}) {
		t.Fatalf("%s: got %v, want %v", what, got, want)
	}
}
