package bench

import (
	"bytes"
	"fmt"
	"io"
	"math"
)

// The colours of the orders plot's lines.
const (
	colorP50 = "#1b9e77"
	colorP99 = "#d95f02"
)

// zeroLag is where the plot draws a second whose lags are all 0 when no
// lag is above 0: the events' resolution, 1 ms.
const zeroLag = 1e-3

// WritePlot writes an SVG of the run: the close lag p50 and p99 of the
// orders falling due in each second, on a log scale.
func (r OrdersResult) WritePlot(w io.Writer) error {
	var b bytes.Buffer
	xmax, lo, hi := 1.0, math.Inf(1), 0.0
	for _, s := range [][]Point{r.lagP50, r.lagP99} {
		for _, p := range s {
			xmax = max(xmax, p.T+0.5)
			if p.V > 0 {
				lo, hi = math.Min(lo, p.V), math.Max(hi, p.V)
			}
		}
	}
	if math.IsInf(lo, 1) { // every lag 0, or nothing closed
		lo = zeroLag
		hi = max(hi, lo)
	}
	height := topY + panelH + 60
	svgOpen(&b, height, fmt.Sprintf("lapse bench orders: %s, %d orders at %.0f/s, timeout %s, %.0f%% paid",
		r.Store, r.Orders, r.Rate, duration(r.Timeout), r.PayShare*100))
	// A decade of headroom keeps the lines clear of the legend.
	p := logPanel(&b, topY, 0, xmax, lo, hi*10, "close lag (log)")
	p.line(&b, logged(r.lagP50, lo), colorP50, "")
	p.line(&b, logged(r.lagP99, lo), colorP99, "")
	text(&b, marginL, topY+panelH+40, "start", 13, "deadline, seconds since the first order was created")
	legend(&b, 0, colorP50, "", "close lag p50 per second (overall "+duration(r.CloseLag.P50)+")")
	legend(&b, 1, colorP99, "", "close lag p99 per second (overall "+duration(r.CloseLag.P99)+")")
	b.WriteString("</svg>\n")
	_, err := w.Write(b.Bytes())
	return err
}
