package bench

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// barWidth is the width of a progress bar in characters.
const barWidth = 30

// Bar is a progress bar redrawn in place on a terminal while long work
// runs: a bench phase, an operator's command.
type Bar struct {
	w     io.Writer
	label string
	total int64
	count func() int64
	start time.Time
	stop  chan struct{}
	done  chan struct{}
}

// StartBar draws a bar of count() out of total on w every 200ms until
// Finish.
func StartBar(w io.Writer, label string, total int64, count func() int64) *Bar {
	b := &Bar{w: w, label: label, total: total, count: count, start: time.Now(),
		stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(b.done)
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		for {
			b.draw()
			select {
			case <-b.stop:
				return
			case <-t.C:
			}
		}
	}()
	return b
}

// Finish draws the bar a last time, with note, and ends its line.
func (b *Bar) Finish(note string) {
	close(b.stop)
	<-b.done
	b.draw()
	fmt.Fprintf(b.w, "  %s\n", note)
}

func (b *Bar) draw() {
	n, pct := min(b.count(), b.total), int64(100)
	if b.total > 0 {
		pct = n * 100 / b.total
	}
	filled := int(pct) * barWidth / 100
	fmt.Fprintf(b.w, "\r%-6s [%s%s] %3d%% %d/%d %5.1fs", b.label,
		strings.Repeat("#", filled), strings.Repeat(".", barWidth-filled),
		pct, n, b.total, time.Since(b.start).Seconds())
}
