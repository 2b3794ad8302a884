package bench

import (
	"bytes"
	"encoding/xml"
	"io"
	"testing"
)

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
	strokes := plotLines(t, r.WritePlot)
	for _, d := range drawn {
		if strokes[d.color] != 2 {
			t.Fatalf("%s: got %d lines, want expired and p99", d.name, strokes[d.color])
		}
	}
	if strokes["#666666"] != 1 {
		t.Fatalf("idle p99 line: got %d, want 1", strokes["#666666"])
	}
	if strokes[paceColor] != 0 {
		t.Fatalf("an unpaced run drew %d pace lines", strokes[paceColor])
	}

	// Paced, it draws the pace's budget among the p99s and its batch and
	// share below.
	r.UserBudget, r.BatchSize = 1.5, 1000
	r.Pace = []PacePoint{
		{T: -1, Batch: 1000, Share: 1, Reason: "measuring"},
		{T: 0.5, Batch: 125, Share: 1, Reason: "over_budget", IdleP99: 0.002, FeltP99: 0.005},
		{T: 0.9, Batch: 20, Share: 0.25, Reason: "over_budget", IdleP99: 0.002, FeltP99: 0.004},
	}
	if strokes := plotLines(t, r.WritePlot); strokes[paceColor] != 3 {
		t.Fatalf("paced: got %d pace lines, want the budget, the batch and the share", strokes[paceColor])
	}
}

// plotLines writes a plot with write and counts its lines by colour.
func plotLines(t *testing.T, write func(io.Writer) error) map[string]int {
	t.Helper()
	var b bytes.Buffer
	if err := write(&b); err != nil {
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
	return strokes
}
