package tty

import (
	"bytes"
	"io"
	"os"
	"testing"
)

// TestIs: a character device is a terminal; a pipe, a file and a buffer
// are not.
func TestIs(t *testing.T) {
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	file, err := os.Create(t.TempDir() + "/log")
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	for _, c := range []struct {
		name string
		w    io.Writer
		want bool
	}{{"a character device", null, true}, {"a pipe", w, false}, {"a file", file, false}, {"a buffer", &bytes.Buffer{}, false}} {
		if got := Is(c.w); got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}
