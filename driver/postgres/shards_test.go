package postgres

import (
	"slices"
	"testing"

	"github.com/lapsehq/lapse/storetype"
)

// TestRanges: the shards of a set of leases come as runs of consecutive
// shards, every shard as one run when there are none.
func TestRanges(t *testing.T) {
	if got := ranges(nil); !slices.Equal(got, [][2]int{{0, storetype.Shards - 1}}) {
		t.Fatalf("no leases: got %v, want one run of every shard", got)
	}
	ls := []storetype.Lease{{Shard: 3}, {Shard: 4}, {Shard: 5}, {Shard: 9}, {Shard: 11}, {Shard: 12}}
	if got, want := ranges(ls), [][2]int{{3, 5}, {9, 9}, {11, 12}}; !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}
