package bench

import (
	"bytes"
	"encoding/xml"
	"fmt"
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

// svgOpen starts an SVG of the plot's width and height tall on b, white,
// with title above.
func svgOpen(b *bytes.Buffer, height int, title string) {
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n",
		plotW, height, plotW, height)
	fmt.Fprintf(b, `<rect width="%d" height="%d" fill="white"/>`+"\n", plotW, height)
	text(b, plotW/2, 28, "middle", 15, title)
}

// legend draws the i-th entry of the legend in the top panel: a line in
// color, dashed if dash is set, and its label.
func legend(b *bytes.Buffer, i int, color, dash, label string) {
	y := topY + 16 + i*18
	style := `stroke-width="2.5"`
	if dash != "" {
		style = fmt.Sprintf(`stroke-width="1.5" stroke-dasharray="%s"`, dash)
	}
	fmt.Fprintf(b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" %s/>`+"\n", legendX, y, legendX+24, y, color, style)
	text(b, legendX+30, y+4, "start", 12, label)
}

// logPanel returns a panel at y whose y axis is the base-10 logarithm of
// durations in seconds, spanning the decades around lo to hi, and draws
// its axes labelled ylabel. Plot values through logged.
func logPanel(b *bytes.Buffer, y int, xmin, xmax, lo, hi float64, ylabel string) panel {
	return decadePanel(b, y, xmin, xmax, math.Max(lo, 1e-5), math.Max(hi, 1e-4), ylabel, duration)
}

// decadePanel returns a panel at y whose y axis is the base-10 logarithm
// of values, spanning the decades around lo to hi (both above 0), and
// draws its axes labelled ylabel, each decade's value written by yfmt.
func decadePanel(b *bytes.Buffer, y int, xmin, xmax, lo, hi float64, ylabel string, yfmt func(float64) string) panel {
	lo, hi = math.Pow(10, math.Floor(math.Log10(lo))), math.Pow(10, math.Ceil(math.Log10(hi)))
	if hi <= lo {
		hi = lo * 10
	}
	p := panel{y: y, xmin: xmin, xmax: xmax, ymin: math.Log10(lo), ymax: math.Log10(hi)}
	var decades []float64
	for e := p.ymin; e <= p.ymax+1e-9; e++ {
		decades = append(decades, e)
	}
	p.axes(b, ylabel, func(e float64) string { return yfmt(math.Pow(10, e)) }, decades)
	return p
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

// logged returns pts with their values as base-10 logarithms, a value
// under floor drawn at floor (the bottom of a log panel whose lo it is: a
// lag of 0 would otherwise have no place on it); a value that still has
// no logarithm (floor <= 0) is left out.
func logged(pts []Point, floor float64) []Point {
	out := make([]Point, 0, len(pts))
	for _, p := range pts {
		if v := math.Max(p.V, floor); v > 0 {
			out = append(out, Point{T: p.T, V: math.Log10(v)})
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
