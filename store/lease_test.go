package store

import (
	"fmt"
	"testing"
)

// TestFairShare: the shares of the live instances add up to every shard,
// and differ by one at most.
func TestFairShare(t *testing.T) {
	for n := 1; n <= Shards+3; n++ {
		live := make([]string, n)
		for i := range live {
			live[i] = fmt.Sprintf("i%02d", i)
		}
		total, least, most := 0, Shards, 0
		for _, h := range live {
			s := FairShare(live, h)
			total += s
			least, most = min(least, s), max(most, s)
		}
		if total != Shards || most-least > 1 {
			t.Fatalf("%d instances: shares add to %d (want %d), from %d to %d", n, total, Shards, least, most)
		}
	}
	if got := FairShare([]string{"a", "b", "c"}, "b"); got != 5 {
		t.Fatalf("b of a, b, c: got %d, want 5 (a takes the one left over)", got)
	}
	if got := FairShare(nil, "a"); got != Shards {
		t.Fatalf("alone, before it is seen: got %d, want %d", got, Shards)
	}
}

// TestFenced: a drain is fenced only if every lease it ran under is held
// with its token.
func TestFenced(t *testing.T) {
	ls := []Lease{{Shard: 1, Token: 4}, {Shard: 2, Token: 7}}
	cases := []struct {
		held []Lease
		want error
	}{
		{[]Lease{{Shard: 1, Token: 4}, {Shard: 2, Token: 7}}, nil},
		{[]Lease{{Shard: 2, Token: 7}, {Shard: 1, Token: 4}, {Shard: 3, Token: 1}}, nil},
		{[]Lease{{Shard: 1, Token: 4}}, ErrLeaseLost},
		{[]Lease{{Shard: 1, Token: 4}, {Shard: 2, Token: 8}}, ErrLeaseLost},
		{nil, ErrLeaseLost},
	}
	for _, c := range cases {
		if got := fenced(ls, c.held); got != c.want {
			t.Fatalf("held %v: got %v, want %v", c.held, got, c.want)
		}
	}
}
