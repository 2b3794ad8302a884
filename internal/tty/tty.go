// Package tty tells whether lapse writes to a terminal: there its log is
// text and its progress bars redraw in place; elsewhere (a pipe, a file,
// a CI log) its log is JSON and its progress plain lines.
package tty

import (
	"io"
	"os"
)

// Is reports whether w is a terminal: an *os.File on a character device.
// /dev/null is one too, which does no harm: nobody reads what it is
// given.
func Is(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
