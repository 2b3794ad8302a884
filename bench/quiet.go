package bench

import (
	"io"
	"log/slog"
)

// quiet sets a bench's unset outputs to nothing: no progress bars, and a
// log that discards.
func quiet(progress *io.Writer, log **slog.Logger) {
	if *progress == nil {
		*progress = io.Discard
	}
	if *log == nil {
		*log = slog.New(slog.DiscardHandler)
	}
}
