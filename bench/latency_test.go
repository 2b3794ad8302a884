package bench

import (
	"bytes"
	"encoding/xml"
	"testing"
	"time"
)

func TestQuantile(t *testing.T) {
	ms := func(v ...int) []time.Duration {
		out := make([]time.Duration, len(v))
		for i, x := range v {
			out[i] = time.Duration(x) * time.Millisecond
		}
		return out
	}
	hundred := make([]int, 100)
	for i := range hundred {
		hundred[i] = i + 1
	}
	cases := []struct {
		sorted []time.Duration
		q      float64
		want   time.Duration
	}{
		{nil, 0.99, 0},
		{ms(7), 0.5, 7 * time.Millisecond},
		{ms(1, 2, 3, 4), 0.5, 2 * time.Millisecond},
		{ms(hundred...), 0.99, 99 * time.Millisecond},
		{ms(hundred...), 1, 100 * time.Millisecond},
	}
	for _, c := range cases {
		if got := quantile(c.sorted, c.q); got != c.want {
			t.Fatalf("quantile(%d values, %v): got %v, want %v", len(c.sorted), c.q, got, c.want)
		}
	}
}

// TestSummarizeAndSeries: stats are taken over all operations and per
// operation, and the p99 series has one point per non-empty window.
func TestSummarizeAndSeries(t *testing.T) {
	origin := time.Date(2026, 11, 11, 0, 0, 0, 0, time.UTC)
	ss := []sample{
		{start: origin, took: time.Millisecond, op: opRead},
		{start: origin.Add(100 * time.Millisecond), took: 3 * time.Millisecond, op: opLock, failed: true},
		{start: origin.Add(600 * time.Millisecond), took: 2 * time.Millisecond, op: opRedeem},
	}
	all, ops := summarize(ss)
	if all.N != 3 || all.Failed != 1 || all.P50 != 0.002 || all.Max != 0.003 {
		t.Fatalf("all: got %+v, want 3 ops, 1 failed, p50 2ms, max 3ms", all)
	}
	if ops["lock"].N != 1 || ops["lock"].P99 != 0.003 || ops["read"].N != 1 || ops["redeem"].N != 1 {
		t.Fatalf("per op: got %+v", ops)
	}
	got := p99Series(ss, origin, 0, time.Second, 250*time.Millisecond)
	want := []Point{{T: 0.125, V: 0.003}, {T: 0.625, V: 0.002}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("p99 series: got %v, want %v", got, want)
	}
}

// TestWritePlot: the plot is an SVG with the expired count and the p99 of
// each drain and the idle p99 line.
func TestWritePlot(t *testing.T) {
	r := Result{Store: "sqlite", Coupons: 100, Idle: IdleResult{UserP99: 0.002}, series: map[string]drainSeries{}}
	for i, d := range drawn {
		r.series[d.name] = drainSeries{
			expired: []Point{{0, 0}, {float64(i + 1), 100}},
			p99:     []Point{{0.1, 0.001}, {0.5, float64(i+1) * 0.01}},
		}
	}
	var b bytes.Buffer
	if err := r.WritePlot(&b); err != nil {
		t.Fatalf("WritePlot: %v", err)
	}
	var doc struct {
		Polylines []struct {
			Stroke string `xml:"stroke,attr"`
		} `xml:"polyline"`
	}
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("plot is not XML: %v", err)
	}
	strokes := map[string]int{}
	for _, p := range doc.Polylines {
		strokes[p.Stroke]++
	}
	for _, d := range drawn {
		if strokes[d.color] != 2 {
			t.Fatalf("%s: got %d lines, want expired and p99", d.name, strokes[d.color])
		}
	}
	if strokes["#666666"] != 1 {
		t.Fatalf("idle p99 line: got %d, want 1", strokes["#666666"])
	}
}
