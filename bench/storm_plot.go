package bench

import (
	"bytes"
	"fmt"
	"io"
	"math"
)

// drawn are the drains the plot draws, in legend order, with their colours.
var drawn = []struct{ name, color string }{
	{"lapse", "#1b9e77"},
	{"naive", "#d95f02"},
	{"floor", "#7570b3"},
}

// WritePlot writes an SVG of the run: above, the coupons expired over time
// by each drain; below, the p99 of the users' writes over time during
// each, on a log scale, with the idle p99 dashed.
func (r Result) WritePlot(w io.Writer) error {
	var b bytes.Buffer
	xmax := 0.0
	for _, d := range drawn {
		for _, p := range r.series[d.name].expired {
			xmax = max(xmax, p.T)
		}
	}
	xmin := -preRoll.Seconds()
	xmax = math.Max(xmax*1.05, 1)
	svgOpen(&b, plotH, fmt.Sprintf("lapse bench storm: %s, %d coupons due at T0, %d templates, %d users, %.0f user ops/s",
		r.Store, r.Coupons, r.Templates, r.Users, r.UserRate))

	top := panel{y: topY, xmin: xmin, xmax: xmax, ymin: 0, ymax: float64(r.Coupons)}
	top.axes(&b, "coupons expired", func(v float64) string { return count(v) }, linearTicks(0, float64(r.Coupons)))
	for _, d := range drawn {
		top.line(&b, r.series[d.name].expired, d.color, "")
	}

	lo, hi := r.Idle.UserP99, r.Idle.UserP99
	for _, d := range drawn {
		for _, p := range r.series[d.name].p99 {
			lo, hi = math.Min(lo, p.V), math.Max(hi, p.V)
		}
	}
	bottom := logPanel(&b, bottomY, xmin, xmax, lo, hi, "user write p99 (log)")
	for _, d := range drawn {
		bottom.line(&b, logged(r.series[d.name].p99, lo), d.color, "")
	}
	idle := math.Max(math.Log10(r.Idle.UserP99), bottom.ymin)
	bottom.line(&b, []Point{{xmin, idle}, {xmax, idle}}, "#666666", "6,4")
	text(&b, marginL, bottomY+panelH+40, "start", 13, "seconds since T0 (the load runs from -2s; the drains start at 0)")

	for i, d := range drawn {
		s := r.series[d.name]
		var last float64
		if n := len(s.expired); n > 0 {
			last = s.expired[n-1].T
		}
		legend(&b, i, d.color, "", fmt.Sprintf("%s: drained in %.1fs", d.name, last))
	}
	legend(&b, len(drawn), "#666666", "6,4", "idle user write p99 "+duration(r.Idle.UserP99))
	b.WriteString("</svg>\n")
	_, err := w.Write(b.Bytes())
	return err
}
