package store

import (
	"slices"
	"testing"

	"github.com/lapsehq/lapse/driver"
)

// TestReserveFrom: a reserve takes its units from its own bucket if it
// holds them, else from the first other bucket that does, else gathers
// them in bucket order; nil when the buckets hold fewer in all.
func TestReserveFrom(t *testing.T) {
	bs := func(avail ...int64) []driver.StockBucket {
		out := make([]driver.StockBucket, len(avail))
		for i, a := range avail {
			out[i] = driver.StockBucket{Bucket: i, Buckets: len(avail), Available: a}
		}
		return out
	}
	cases := []struct {
		name  string
		bs    []driver.StockBucket
		own   int
		qty   int64
		takes []int64
	}{
		{"own", bs(2, 2, 2), 1, 2, []int64{0, 2, 0}},
		{"one other", bs(2, 0, 3), 1, 3, []int64{0, 0, 3}},
		{"the first other that holds it", bs(3, 1, 3), 1, 2, []int64{2, 0, 0}},
		{"gathered in bucket order", bs(1, 1, 2, 1), 3, 4, []int64{1, 1, 2, 0}},
		{"all", bs(1, 1, 1), 0, 3, []int64{1, 1, 1}},
		{"short", bs(1, 1, 1), 0, 4, nil},
		{"empty", bs(0, 0), 1, 1, nil},
	}
	for _, c := range cases {
		if got := reserveFrom(c.bs, c.own, c.qty); !slices.Equal(got, c.takes) {
			t.Errorf("%s: got %v, want %v", c.name, got, c.takes)
		}
	}
}

// TestSpreadStock: buckets share the available units evenly, the first
// ones a unit more.
func TestSpreadStock(t *testing.T) {
	for _, c := range []struct {
		available int64
		n         int
		want      []int64
	}{
		{10, 8, []int64{2, 2, 1, 1, 1, 1, 1, 1}},
		{3, 5, []int64{1, 1, 1, 0, 0}},
		{7, 1, []int64{7}},
		{0, 3, []int64{0, 0, 0}},
	} {
		var got []int64
		for i, b := range spreadStock(c.available, c.n, c.available+5) {
			if b.Bucket != i || b.Buckets != c.n || b.Stock != c.available+5 {
				t.Fatalf("spread %d over %d: bucket %d is %+v", c.available, c.n, i, b)
			}
			got = append(got, b.Available)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("spread %d over %d: got %v, want %v", c.available, c.n, got, c.want)
		}
	}
}
