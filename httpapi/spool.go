package httpapi

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"os"
)

// spool holds the users of a bulk issuance in a temporary file, one ID a
// line (an ID holds no control character, so no newline), between the
// reading of the body, which checks them all, and their issuance, which
// reads them back a batch at a time: a request's memory does not grow
// with its list.
type spool struct {
	f *os.File
	w *bufio.Writer
}

// newSpool creates an empty spool under os.TempDir. Its file is unlinked
// at once where the system allows it, so that not even a crash leaves it
// behind; Close removes it otherwise.
func newSpool() (*spool, error) {
	f, err := os.CreateTemp("", "lapse-issue-*")
	if err != nil {
		return nil, fmt.Errorf("spool: %w", err)
	}
	os.Remove(f.Name()) // on failure Close tries again
	return &spool{f: f, w: bufio.NewWriter(f)}, nil
}

// add appends user, an ID the input rules accept.
func (s *spool) add(user string) error {
	s.w.WriteString(user) // bufio's errors stick: WriteByte's reports it
	if err := s.w.WriteByte('\n'); err != nil {
		return fmt.Errorf("spool: %w", err)
	}
	return nil
}

// users returns the users added, in order, to be walked once.
func (s *spool) users() (iter.Seq2[string, error], error) {
	if err := s.w.Flush(); err != nil {
		return nil, fmt.Errorf("spool: %w", err)
	}
	if _, err := s.f.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("spool: %w", err)
	}
	return func(yield func(string, error) bool) {
		sc := bufio.NewScanner(s.f)
		for sc.Scan() {
			if !yield(sc.Text(), nil) {
				return
			}
		}
		if err := sc.Err(); err != nil {
			yield("", fmt.Errorf("spool: %w", err))
		}
	}, nil
}

// Close closes and removes the spool's file.
func (s *spool) Close() error {
	err := s.f.Close()
	if rerr := os.Remove(s.f.Name()); !errors.Is(rerr, fs.ErrNotExist) {
		err = errors.Join(err, rerr)
	}
	return err
}
