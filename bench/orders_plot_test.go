package bench

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"
)

// TestWriteOrdersPlot: the orders plot is an SVG with a p50 and a p99 line
// of the close lag, and draws even when nothing closed; a second whose lag
// is 0 is drawn, at the bottom, whether or not others are above 0.
func TestWriteOrdersPlot(t *testing.T) {
	type doc struct {
		Polylines []struct {
			Stroke string `xml:"stroke,attr"`
			Points string `xml:"points,attr"`
		} `xml:"polyline"`
	}
	plot := func(r OrdersResult) doc {
		t.Helper()
		var b bytes.Buffer
		if err := r.WritePlot(&b); err != nil {
			t.Fatalf("WritePlot: %v", err)
		}
		var d doc
		if err := xml.Unmarshal(b.Bytes(), &d); err != nil {
			t.Fatalf("plot is not XML: %v\n%s", err, b.String())
		}
		if strings.Contains(b.String(), "NaN") || strings.Contains(b.String(), "Inf") {
			t.Fatalf("plot has non-finite coordinates:\n%s", b.String())
		}
		return d
	}
	r := OrdersResult{Store: "sqlite", Orders: 400, Rate: 100, Timeout: 1, PayShare: 0.5,
		CloseLag: Quantiles{P50: 0.004, P99: 0.012, Max: 0.02},
		lagP50:   []Point{{1.5, 0.004}, {2.5, 0.005}, {3.5, 0.003}},
		lagP99:   []Point{{1.5, 0.01}, {2.5, 0.012}, {3.5, 0.02}},
	}
	d := plot(r)
	strokes := map[string]int{}
	for _, p := range d.Polylines {
		strokes[p.Stroke] += len(strings.Fields(p.Points))
	}
	if strokes[colorP50] != 3 || strokes[colorP99] != 3 {
		t.Fatalf("points by line: got %v, want 3 of p50 (%s) and 3 of p99 (%s)", strokes, colorP50, colorP99)
	}
	for _, p50 := range [][]Point{{{1.5, 0}, {2.5, 0}}, {{1.5, 0}, {2.5, 0.003}}} {
		r.lagP50, r.lagP99 = p50, []Point{{1.5, 0}, {2.5, 0.004}}
		d := plot(r)
		if len(d.Polylines) != 2 || len(strings.Fields(d.Polylines[0].Points)) != 2 || len(strings.Fields(d.Polylines[1].Points)) != 2 {
			t.Fatalf("lags of 0 (p50 %v): got %+v, want 2 lines of 2 points", p50, d.Polylines)
		}
	}
	if d := plot(OrdersResult{Store: "sqlite", Orders: 10, Rate: 10, Timeout: 1, PayShare: 1}); len(d.Polylines) != 0 {
		t.Fatalf("nothing closed: got %d lines, want none", len(d.Polylines))
	}
}
