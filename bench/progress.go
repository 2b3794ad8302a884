package bench

import (
	"cmp"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"time"

	"github.com/lapsehq/lapse/internal/tty"
)

// barWidth is the width of a progress bar in characters.
const barWidth = 30

// How often a bar is drawn: redrawn in place on a terminal; written as a
// line of its own elsewhere (a pipe, a file, a CI log), seldom enough not
// to flood it.
const (
	redrawEvery = 200 * time.Millisecond
	lineEvery   = 10 * time.Second
)

// Bar is a progress bar while long work runs: a bench phase, an
// operator's command. On a terminal it is redrawn in place; elsewhere it
// is a line when it starts, one every lineEvery, and one when it
// finishes.
type Bar struct {
	w       io.Writer
	inPlace bool
	label   string
	total   atomic.Int64
	count   func() int64
	start   time.Time
	stop    chan struct{}
	done    chan struct{}
}

// StartBar draws a bar of count() out of total on w until Finish.
func StartBar(w io.Writer, label string, total int64, count func() int64) *Bar {
	b := &Bar{w: w, inPlace: tty.Is(w), label: label, count: count, start: time.Now(),
		stop: make(chan struct{}), done: make(chan struct{})}
	b.total.Store(total)
	every := lineEvery
	if b.inPlace {
		every = redrawEvery
	}
	go func() {
		defer close(b.done)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			b.draw("")
			select {
			case <-b.stop:
				return
			case <-t.C:
			}
		}
	}()
	return b
}

// SetTotal changes what the bar counts up to, for work whose total is
// known better as it goes.
func (b *Bar) SetTotal(total int64) { b.total.Store(total) }

// Finish draws the bar a last time, with note, and ends its line.
func (b *Bar) Finish(note string) {
	close(b.stop)
	<-b.done
	b.draw("  " + note + "\n")
}

// draw writes the bar followed by end: over the last on a terminal,
// ended by end or a newline elsewhere.
func (b *Bar) draw(end string) {
	total := b.total.Load()
	n, pct := min(b.count(), total), int64(100)
	if total > 0 {
		pct = n * 100 / total
	}
	filled := int(pct) * barWidth / 100
	start := "\r"
	if !b.inPlace {
		start, end = "", cmp.Or(end, "\n")
	}
	fmt.Fprintf(b.w, "%s%-6s [%s%s] %3d%% %d/%d %5.1fs%s", start, b.label,
		strings.Repeat("#", filled), strings.Repeat(".", barWidth-filled),
		pct, n, total, time.Since(b.start).Seconds(), end)
}
