package bench

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"strings"
)

// drawn are the drains the plot draws, in legend order, with their colours.
var drawn = []struct{ name, color string }{
	{"lapse", "#1b9e77"},
	{"naive", "#d95f02"},
	{"floor", "#7570b3"},
}

// paceY is the top edge of the pace's panel, under the two others.
const paceY = bottomY + (bottomY - topY)

// WritePlot writes an SVG of the run: above, the coupons expired over time
// by each drain; below, the p99 of the users' writes over time during
// each, on a log scale, with the idle p99 dashed; and when a pace paced
// lapse's drain, the budget it held users to, and a third panel of its
// batch and share over time.
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
	height := plotH
	if len(r.Pace) > 0 {
		height += paceY - bottomY
	}
	svgOpen(&b, height, fmt.Sprintf("lapse bench storm: %s, %d coupons due at T0, %d templates, %d users, %.0f user ops/s",
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
	xlabel := "seconds since T0 (the load runs from -2s; the drains start at 0)"
	text(&b, marginL, bottomY+panelH+40, "start", 13, xlabel)
	if len(r.Pace) > 0 {
		r.drawPace(&b, bottom, lo, xlabel)
	}

	for i, d := range drawn {
		s := r.series[d.name]
		var last float64
		if n := len(s.expired); n > 0 {
			last = s.expired[n-1].T
		}
		legend(&b, i, d.color, "", fmt.Sprintf("%s: drained in %.1fs", d.name, last))
	}
	legend(&b, len(drawn), "#666666", "6,4", "idle user write p99 "+duration(r.Idle.UserP99))
	if len(r.Pace) > 0 {
		legend(&b, len(drawn)+1, paceColor, "2,3", fmt.Sprintf("the pace's budget: %g × the idle p99 it measured", r.UserBudget))
	}
	b.WriteString("</svg>\n")
	_, err := w.Write(b.Bytes())
	return err
}

// paceColor draws the pace.
const paceColor = "#e7298a"

// drawPace draws, in the user p99 panel bottom (whose least value is lo),
// the budget the pace held users to, and in a panel of its own the pace's
// batch (as a share of the full batch) and share over time.
func (r Result) drawPace(b *bytes.Buffer, bottom panel, lo float64, xlabel string) {
	var budget, batch, share []Point
	least := 1.0
	for _, p := range r.Pace {
		if p.IdleP99 > 0 {
			budget = append(budget, Point{T: p.T, V: r.UserBudget * p.IdleP99})
		}
		batch = append(batch, Point{T: p.T, V: float64(p.Batch) / float64(r.BatchSize)})
		share = append(share, Point{T: p.T, V: p.Share})
		least = math.Min(least, math.Min(batch[len(batch)-1].V, p.Share))
	}
	bottom.line(b, logged(budget, lo), paceColor, "2,3")
	percent := func(v float64) string { return strings.TrimSuffix(fmt.Sprintf("%.2f", 100*v), ".00") + "%" }
	p := decadePanel(b, paceY, bottom.xmin, bottom.xmax, math.Max(least, 1e-4), 1, "the pace of lapse's drain (log)", percent)
	p.line(b, logged(batch, 1e-4), paceColor, "")
	p.line(b, logged(share, 1e-4), paceColor, "6,4")
	text(b, marginL, paceY+panelH+40, "start", 13, xlabel)
	text(b, legendX, paceY+18, "start", 12, fmt.Sprintf("solid: batch, as a share of %d rows; dashed: share of the time in batches", r.BatchSize))
}
