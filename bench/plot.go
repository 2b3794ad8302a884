package bench

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strings"
)

// Plot geometry, in SVG user units.
const (
	plotW, plotH  = 960, 720
	marginL       = 90
	marginR       = 30
	panelH        = 260
	topY, bottomY = 60, 390 // top edges of the two panels
	legendX       = marginL + 16
)

// drawn are the drains the plot draws, in legend order, with their colours.
var drawn = []struct{ name, color string }{
	{"lapse", "#1b9e77"},
	{"naive", "#d95f02"},
	{"floor", "#7570b3"},
}

// WritePlot writes an SVG of the run: above, the coupons expired over time
// by each drain; below, the user p99 over time during each, on a log
// scale, with the idle p99 dashed.
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
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n",
		plotW, plotH, plotW, plotH)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", plotW, plotH)
	title := fmt.Sprintf("lapse bench storm: %s, %d coupons due at T0, %d templates, %d users, %.0f user ops/s",
		r.Store, r.Coupons, r.Templates, r.Users, r.UserRate)
	text(&b, plotW/2, 28, "middle", 15, title)

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
	lo, hi = math.Pow(10, math.Floor(math.Log10(math.Max(lo, 1e-5)))), math.Pow(10, math.Ceil(math.Log10(math.Max(hi, 1e-4))))
	if hi <= lo {
		hi = lo * 10
	}
	bottom := panel{y: bottomY, xmin: xmin, xmax: xmax, ymin: math.Log10(lo), ymax: math.Log10(hi)}
	var decades []float64
	for e := bottom.ymin; e <= bottom.ymax+1e-9; e++ {
		decades = append(decades, e)
	}
	bottom.axes(&b, "user-op p99 (log)", func(e float64) string { return duration(math.Pow(10, e)) }, decades)
	for _, d := range drawn {
		bottom.line(&b, logged(r.series[d.name].p99), d.color, "")
	}
	idle := math.Log10(math.Max(r.Idle.UserP99, lo))
	bottom.line(&b, []Point{{xmin, idle}, {xmax, idle}}, "#666666", "6,4")
	text(&b, marginL, bottomY+panelH+40, "start", 13, "seconds since T0 (the load runs from -2s; the drains start at 0)")

	for i, d := range drawn {
		y := topY + 16 + i*18
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2.5"/>`+"\n", legendX, y, legendX+24, y, d.color)
		s := r.series[d.name]
		var last float64
		if n := len(s.expired); n > 0 {
			last = s.expired[n-1].T
		}
		text(&b, legendX+30, y+4, "start", 12, fmt.Sprintf("%s: drained in %.1fs", d.name, last))
	}
	y := topY + 16 + len(drawn)*18
	fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#666666" stroke-width="1.5" stroke-dasharray="6,4"/>`+"\n", legendX, y, legendX+24, y)
	text(&b, legendX+30, y+4, "start", 12, "idle user p99 "+duration(r.Idle.UserP99))
	b.WriteString("</svg>\n")
	_, err := w.Write(b.Bytes())
	return err
}

// panel is one plot area: data coordinates mapped onto a rectangle.
type panel struct {
	y                      int
	xmin, xmax, ymin, ymax float64
}

func (p panel) px(x float64) float64 {
	return marginL + (x-p.xmin)/(p.xmax-p.xmin)*float64(plotW-marginL-marginR)
}

func (p panel) py(y float64) float64 {
	return float64(p.y+panelH) - (y-p.ymin)/(p.ymax-p.ymin)*panelH
}

// axes draws the frame, the x ticks in seconds and the y ticks at yticks.
func (p panel) axes(b *bytes.Buffer, ylabel string, yfmt func(float64) string, yticks []float64) {
	fmt.Fprintf(b, `<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#999"/>`+"\n", marginL, p.y, plotW-marginL-marginR, panelH)
	for _, x := range linearTicks(p.xmin, p.xmax) {
		fmt.Fprintf(b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#eee"/>`+"\n", p.px(x), p.y, p.px(x), p.y+panelH)
		text(b, int(p.px(x)), p.y+panelH+16, "middle", 11, trim(x))
	}
	for _, y := range yticks {
		fmt.Fprintf(b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#eee"/>`+"\n", marginL, p.py(y), plotW-marginR, p.py(y))
		text(b, marginL-6, int(p.py(y))+4, "end", 11, yfmt(y))
	}
	fmt.Fprintf(b, `<text x="20" y="%d" transform="rotate(-90 20 %d)" text-anchor="middle" font-size="13">%s</text>`+"\n",
		p.y+panelH/2, p.y+panelH/2, escape(ylabel))
}

// line draws pts as a polyline, clipped to the panel's x range.
func (p panel) line(b *bytes.Buffer, pts []Point, color, dash string) {
	var sb strings.Builder
	for _, pt := range pts {
		if pt.T < p.xmin || pt.T > p.xmax {
			continue
		}
		fmt.Fprintf(&sb, "%.1f,%.1f ", p.px(pt.T), p.py(math.Max(pt.V, p.ymin)))
	}
	if sb.Len() == 0 {
		return
	}
	extra := ""
	if dash != "" {
		extra = fmt.Sprintf(` stroke-dasharray="%s"`, dash)
	}
	fmt.Fprintf(b, `<polyline fill="none" stroke="%s" stroke-width="2"%s points="%s"/>`+"\n", color, extra, strings.TrimSpace(sb.String()))
}

// logged returns pts with their values as base-10 logarithms.
func logged(pts []Point) []Point {
	out := make([]Point, 0, len(pts))
	for _, p := range pts {
		if p.V > 0 {
			out = append(out, Point{T: p.T, V: math.Log10(p.V)})
		}
	}
	return out
}

// linearTicks returns round tick values covering [lo, hi].
func linearTicks(lo, hi float64) []float64 {
	raw := (hi - lo) / 8
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	var out []float64
	for v := math.Ceil(lo/step) * step; v <= hi+step*1e-9; v += step {
		out = append(out, v)
	}
	return out
}

func text(b *bytes.Buffer, x, y int, anchor string, size int, s string) {
	fmt.Fprintf(b, `<text x="%d" y="%d" text-anchor="%s" font-size="%d">%s</text>`+"\n", x, y, anchor, size, escape(s))
}

func escape(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s))
	return b.String()
}

// trim writes v without a needless fraction.
func trim(v float64) string { return strings.TrimSuffix(fmt.Sprintf("%.1f", v), ".0") }

// count writes n as 250k or 1.5M.
func count(n float64) string {
	switch {
	case n >= 1e6:
		return trim(n/1e6) + "M"
	case n >= 1e3:
		return trim(n/1e3) + "k"
	}
	return trim(n)
}

// duration writes s seconds as 250µs, 12ms or 3s.
func duration(s float64) string {
	switch {
	case s >= 1:
		return trim(s) + "s"
	case s >= 1e-3:
		return trim(s*1e3) + "ms"
	}
	return trim(s*1e6) + "µs"
}
