package bench

import (
	"testing"
	"time"

	"github.com/lapsehq/lapse/storetype"
)

// TestHotSKURunOf: a hot-SKU run counts the orders created and refused
// short, and its stock check fails on any counter that does not add up.
func TestHotSKURunOf(t *testing.T) {
	start := time.Now()
	ops := []sample{
		{start: start, took: 10 * time.Millisecond},
		{start: start, took: 20 * time.Millisecond},
		{start: start, took: 30 * time.Millisecond},
		{start: start, took: time.Millisecond, failed: true},
	}
	cases := []struct {
		name     string
		reserves bool
		sku      storetype.SKU
		ok       bool
	}{
		{"lapse", true, storetype.SKU{Available: 7, Reserved: 3}, true},
		{"floor", false, storetype.SKU{Available: 7}, true},
		{"oversold", false, storetype.SKU{Available: -1}, false},
		{"lost units", false, storetype.SKU{Available: 6}, false},
		{"lapse reserved too few", true, storetype.SKU{Available: 7, Reserved: 2}, false},
		{"floor reserved", false, storetype.SKU{Available: 7, Reserved: 3}, false},
		{"sold", true, storetype.SKU{Available: 7, Reserved: 3, Sold: 1}, false},
	}
	for _, c := range cases {
		got := hotSKURunOf(ops, 2*time.Second, 10, c.reserves, c.sku)
		if got.StockOK != c.ok {
			t.Fatalf("%s: stock ok %t, want %t", c.name, got.StockOK, c.ok)
		}
		if got.Orders != 3 || got.Short != 1 || got.Rate != 1.5 || got.Latency.Max != 0.030 {
			t.Fatalf("%s: got %+v, want 3 orders at 1.5/s, 1 short, max 30ms", c.name, got)
		}
	}
}

// TestHotSKUWritePlot: the plot is an SVG with lapse's and the floor's
// p99 lines, and the bucketed run's if there is one.
func TestHotSKUWritePlot(t *testing.T) {
	r := HotSKUResult{Store: "sqlite", Clients: 16,
		Lapse: HotSKURun{p99: []Point{{0.5, 0.02}, {1.5, 0.03}}},
		Floor: HotSKURun{p99: []Point{{0.5, 0.01}, {1.5, 0.01}}}}
	strokes := plotLines(t, r.WritePlot)
	if strokes[colorP50] != 1 || strokes[colorP99] != 1 || strokes[colorBuckets] != 0 {
		t.Fatalf("got lines %v, want one lapse and one floor", strokes)
	}
	r.Buckets, r.Bucketed = 8, &HotSKURun{p99: []Point{{0.5, 0.01}, {1.5, 0.02}}}
	strokes = plotLines(t, r.WritePlot)
	if strokes[colorP50] != 1 || strokes[colorP99] != 1 || strokes[colorBuckets] != 1 {
		t.Fatalf("got lines %v, want lapse, lapse on buckets and the floor", strokes)
	}
}
