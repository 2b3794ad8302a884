package bench

import (
	"bytes"
	"fmt"
	"io"
	"math"
)

// colorBuckets draws the bucketed run.
const colorBuckets = "#7570b3"

// WritePlot writes an SVG of the run: the p99 of the orders begun in each
// second, lapse's (and on a bucketed SKU) and the floor's, on a log scale.
func (r HotSKUResult) WritePlot(w io.Writer) error {
	var b bytes.Buffer
	type run struct {
		name, color string
		r           HotSKURun
	}
	runs := []run{{"lapse", colorP50, r.Lapse}}
	if r.Bucketed != nil {
		runs = append(runs, run{fmt.Sprintf("lapse, %d buckets", r.Buckets), colorBuckets, *r.Bucketed})
	}
	runs = append(runs, run{"floor", colorP99, r.Floor})
	xmax, lo, hi := 1.0, math.Inf(1), 0.0
	for _, run := range runs {
		for _, p := range run.r.p99 {
			xmax = max(xmax, p.T+0.5)
			lo, hi = math.Min(lo, p.V), math.Max(hi, p.V)
		}
	}
	if math.IsInf(lo, 1) { // no order
		lo, hi = 0.001, 0.001
	}
	svgOpen(&b, topY+panelH+60, fmt.Sprintf("lapse bench orders --hot-sku: %s, %d clients on one SKU", r.Store, r.Clients))
	// A decade of headroom keeps the lines clear of the legend.
	p := logPanel(&b, topY, 0, xmax, lo, hi*10, "order p99 (log)")
	for i, run := range runs {
		p.line(&b, logged(run.r.p99, lo), run.color, "")
		legend(&b, i, run.color, "", run.name+": "+run.r.String())
	}
	text(&b, marginL, topY+panelH+40, "start", 13, "seconds since the run began")
	b.WriteString("</svg>\n")
	_, err := w.Write(b.Bytes())
	return err
}
