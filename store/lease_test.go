package store

import (
	"fmt"
	"testing"

	"github.com/lapsehq/lapse/storetype"
)

// TestFairShare: the shares of the live instances add up to every shard,
// and differ by one at most.
func TestFairShare(t *testing.T) {
	for n := 1; n <= storetype.Shards+3; n++ {
		live := make([]string, n)
		for i := range live {
			live[i] = fmt.Sprintf("i%02d", i)
		}
		total, least, most := 0, storetype.Shards, 0
		for _, h := range live {
			s := FairShare(live, h)
			total += s
			least, most = min(least, s), max(most, s)
		}
		if total != storetype.Shards || most-least > 1 {
			t.Fatalf("%d instances: shares add to %d (want %d), from %d to %d", n, total, storetype.Shards, least, most)
		}
	}
	if got := FairShare([]string{"a", "b", "c"}, "b"); got != 5 {
		t.Fatalf("b of a, b, c: got %d, want 5 (a takes the one left over)", got)
	}
	if got := FairShare(nil, "a"); got != storetype.Shards {
		t.Fatalf("alone, before it is seen: got %d, want %d", got, storetype.Shards)
	}
}

// TestFenced: a drain is fenced only if every lease it ran under is held
// with its token.
func TestFenced(t *testing.T) {
	ls := []storetype.Lease{{Shard: 1, Token: 4}, {Shard: 2, Token: 7}}
	cases := []struct {
		held []storetype.Lease
		want error
	}{
		{[]storetype.Lease{{Shard: 1, Token: 4}, {Shard: 2, Token: 7}}, nil},
		{[]storetype.Lease{{Shard: 2, Token: 7}, {Shard: 1, Token: 4}, {Shard: 3, Token: 1}}, nil},
		{[]storetype.Lease{{Shard: 1, Token: 4}}, ErrLeaseLost},
		{[]storetype.Lease{{Shard: 1, Token: 4}, {Shard: 2, Token: 8}}, ErrLeaseLost},
		{nil, ErrLeaseLost},
	}
	for _, c := range cases {
		if got := fenced(ls, c.held); got != c.want {
			t.Fatalf("held %v: got %v, want %v", c.held, got, c.want)
		}
	}
}
