package bench

import (
	"bytes"
	"fmt"
	"io"
	"math"
)

// The colours of the ops plot: each operation's line and band, the users'
// p99 and the idle p99.
const (
	colorVoid   = "#d95f02"
	colorExtend = "#7570b3"
	colorUsers  = "#1b9e77"
	colorIdle   = "#666666"
)

// WritePlot writes an SVG of the run: above, the coupons voided and
// extended over time; below, the p99 of the users' writes over time on a
// log scale, with the idle p99 dashed; each operation's span shaded in
// both.
func (r OpsResult) WritePlot(w io.Writer) error {
	var b bytes.Buffer
	xmax := 1.0
	for _, s := range [][]Point{r.voided, r.extended, r.p99} {
		for _, p := range s {
			xmax = max(xmax, p.T)
		}
	}
	xmax *= 1.05
	svgOpen(&b, plotH, fmt.Sprintf("lapse bench ops: %s, void and extend of %d coupons each, %d users, %.0f user ops/s",
		r.Store, r.Coupons, r.Users, r.UserRate))
	runs := []struct {
		name  string
		run   BulkRun
		color string
		pts   []Point
	}{{"void", r.Void, colorVoid, r.voided}, {"extend", r.Extend, colorExtend, r.extended}}

	top := panel{y: topY, xmin: 0, xmax: xmax, ymin: 0, ymax: float64(r.Coupons)}
	lo, hi := r.Idle.Writes.P99, r.Idle.Writes.P99
	for _, p := range r.p99 {
		lo, hi = math.Min(lo, p.V), math.Max(hi, p.V)
	}
	for _, run := range runs {
		top.band(&b, run.run.Start, run.run.Start+run.run.Seconds, run.color)
	}
	top.axes(&b, "coupons worked", func(v float64) string { return count(v) }, linearTicks(0, float64(r.Coupons)))
	for _, run := range runs {
		top.line(&b, run.pts, run.color, "")
	}
	// A decade of headroom keeps the lines clear of the legend.
	bottom := logPanel(&b, bottomY, 0, xmax, lo, hi*10, "user write p99 (log)")
	for _, run := range runs {
		bottom.band(&b, run.run.Start, run.run.Start+run.run.Seconds, run.color)
	}
	bottom.line(&b, logged(r.p99, lo), colorUsers, "")
	idle := math.Max(math.Log10(r.Idle.Writes.P99), bottom.ymin)
	bottom.line(&b, []Point{{0, idle}, {xmax, idle}}, colorIdle, "6,4")
	text(&b, marginL, bottomY+panelH+40, "start", 13, "seconds since the idle phase started measuring (shaded: each operation, from the engine taking it to its last batch)")

	for i, run := range runs {
		legend(&b, i, run.color, "", fmt.Sprintf("%s: %.0f coupons/s, user write p99 %s", run.name, run.run.Rate, duration(run.run.Users.Writes.P99)))
	}
	legend(&b, len(runs), colorUsers, "", "user write p99 per "+duration(p99Window.Seconds()))
	legend(&b, len(runs)+1, colorIdle, "6,4", "idle user write p99 "+duration(r.Idle.Writes.P99))
	b.WriteString("</svg>\n")
	_, err := w.Write(b.Bytes())
	return err
}

// band shades the panel from x = from to x = to in a light tint of color.
func (p panel) band(b *bytes.Buffer, from, to float64, color string) {
	x0, x1 := p.px(math.Max(from, p.xmin)), p.px(math.Min(to, p.xmax))
	if x1 <= x0 {
		return
	}
	fmt.Fprintf(b, `<rect x="%.1f" y="%d" width="%.1f" height="%d" fill="%s" fill-opacity="0.12"/>`+"\n", x0, p.y, x1-x0, panelH, color)
}
