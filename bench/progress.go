package bench

import (
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"time"
)

// barWidth is the width of a progress bar in characters.
const barWidth = 30

// Bar is a progress bar redrawn in place on a terminal while long work
// runs: a bench phase, an operator's command.
type Bar struct {
	w     io.Writer
	label string
	total atomic.Int64
	count func() int64
	start time.Time
	stop  chan struct{}
	done  chan struct{}
}

// StartBar draws a bar of count() out of total on w every 200ms until
// Finish.
func StartBar(w io.Writer, label string, total int64, count func() int64) *Bar {
	b := &Bar{w: w, label: label, count: count, start: time.Now(),
		stop: make(chan struct{}), done: make(chan struct{})}
	b.total.Store(total)
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

// SetTotal changes what the bar counts up to, for work whose total is
// known better as it goes.
func (b *Bar) SetTotal(total int64) { b.total.Store(total) }

// Finish draws the bar a last time, with note, and ends its line.
func (b *Bar) Finish(note string) {
	close(b.stop)
	<-b.done
	b.draw()
	fmt.Fprintf(b.w, "  %s\n", note)
}

func (b *Bar) draw() {
	total := b.total.Load()
	n, pct := min(b.count(), total), int64(100)
	if total > 0 {
		pct = n * 100 / total
	}
	filled := int(pct) * barWidth / 100
	fmt.Fprintf(b.w, "\r%-6s [%s%s] %3d%% %d/%d %5.1fs", b.label,
		strings.Repeat("#", filled), strings.Repeat(".", barWidth-filled),
		pct, n, total, time.Since(b.start).Seconds())
}
