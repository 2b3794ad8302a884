package cli

import (
	"context"
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"github.com/lapsehq/lapse/bench"
)

// watch follows long work a running lapse does, asking poll how far it
// is every interval and drawing a progress bar of done out of total on w,
// until poll says it finished, fails, or ctx is done; the bar counts up
// to the total poll last said, and never past it. Operator commands that
// start an operation and wait for it (replay, bulk void, archive) use
// it.
func watch(ctx context.Context, w io.Writer, label string, total int64, every time.Duration,
	poll func(ctx context.Context) (done, total int64, finished bool, err error)) error {
	var done atomic.Int64
	bar := bench.StartBar(w, label, total, done.Load)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		n, total, finished, err := poll(ctx)
		if err != nil {
			bar.Finish("failed")
			return err
		}
		bar.SetTotal(total)
		done.Store(n)
		if finished {
			bar.Finish("done")
			return nil
		}
		select {
		case <-ctx.Done():
			bar.Finish("stopped")
			return fmt.Errorf("%s: %w", label, context.Cause(ctx))
		case <-t.C:
		}
	}
}
