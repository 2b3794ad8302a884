package bench

import (
	"bytes"
	"fmt"
	"io"
	"math"
)

// WritePlot writes an SVG of the run: the p99 of the orders begun in each
// second, lapse's and the floor's, on a log scale.
func (r HotSKUResult) WritePlot(w io.Writer) error {
	var b bytes.Buffer
	xmax, lo, hi := 1.0, math.Inf(1), 0.0
	for _, s := range [][]Point{r.Lapse.p99, r.Floor.p99} {
		for _, p := range s {
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
	p.line(&b, logged(r.Lapse.p99), colorP50, "")
	p.line(&b, logged(r.Floor.p99), colorP99, "")
	text(&b, marginL, topY+panelH+40, "start", 13, "seconds since the run began")
	legend(&b, 0, colorP50, "", "lapse: "+r.Lapse.String())
	legend(&b, 1, colorP99, "", "floor: "+r.Floor.String())
	b.WriteString("</svg>\n")
	_, err := w.Write(b.Bytes())
	return err
}
