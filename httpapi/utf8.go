package httpapi

import (
	"fmt"
	"io"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// validUTF8 refuses b, which starts at byte off of a body, unless it is
// valid UTF-8: 422 invalid, as a path ID that is not, naming the body and
// the offset of the first bad byte (not the field: the bytes are checked
// before they are parsed). encoding/json would read each bad byte as
// U+FFFD, so that "w\xff" and "w\xfe" would name one user.
func validUTF8(b []byte, off int64) error {
	if utf8.Valid(b) {
		return nil
	}
	i := 0
	for i < len(b) {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			break
		}
		i += size
	}
	return invalid("body", fmt.Sprintf("must be valid UTF-8: byte %d is not", off+int64(i)))
}

// utf8Reader passes a body on as it is read, failing once its bytes stop
// being valid UTF-8 (see validUTF8): the check of a streamed body, whose
// reads may cut a character in two.
type utf8Reader struct {
	r    io.Reader
	off  int64 // bytes checked
	cut  []byte
	err  error // the body's bytes are not UTF-8
	tail [utf8.UTFMax]byte
}

// Read reads from the body, checking what it reads.
func (u *utf8Reader) Read(p []byte) (int, error) {
	if u.err != nil {
		return 0, u.err
	}
	n, err := u.r.Read(p)
	if cerr := u.check(p[:n], err == io.EOF); cerr != nil {
		u.err = cerr
		return 0, cerr
	}
	return n, err
}

// check checks b, the next bytes of the body; end says no more follow.
// A character cut at b's end is kept in u.cut to be checked whole with
// the next bytes.
func (u *utf8Reader) check(b []byte, end bool) error {
	for len(u.cut) > 0 && len(b) > 0 && !utf8.FullRune(u.cut) {
		u.cut = append(u.cut, b[0])
		b = b[1:]
	}
	if len(u.cut) > 0 && (utf8.FullRune(u.cut) || end) {
		if err := validUTF8(u.cut, u.off); err != nil {
			return err
		}
		u.off += int64(len(u.cut))
		u.cut = nil
	}
	if len(u.cut) > 0 {
		return nil // b is used up, the character still cut
	}
	whole := len(b)
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax+1; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				whole = i
			}
			break
		}
	}
	if !end && whole < len(b) {
		u.cut = append(u.tail[:0], b[whole:]...)
		b = b[:whole]
	}
	if err := validUTF8(b, u.off); err != nil {
		return err
	}
	u.off += int64(len(b))
	return nil
}

// first returns the error of a decoding that read from u: u's own if the
// body was not UTF-8 (the decoder saw it as a read error), else err.
func (u *utf8Reader) first(err error) error {
	if u.err != nil && err != nil {
		return u.err
	}
	return err
}

// validEscapes refuses the JSON text b, which starts at byte off of a
// body, if a \u escape in it is half of a UTF-16 surrogate pair:
// encoding/json would read it as U+FFFD, as it does an invalid byte, so
// that "w\ud800" and "w\udc00" would name one user. 422 invalid, as
// validUTF8. b is valid JSON: a backslash opens an escape.
func validEscapes(b []byte, off int64) error {
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' {
			continue
		}
		r, ok := escapedRune(b[i:])
		if !ok || !utf16.IsSurrogate(r) {
			i++ // the escaped character
			continue
		}
		if low, ok := escapedRune(b[i+6:]); ok && utf16.DecodeRune(r, low) != utf8.RuneError {
			i += 11
			continue
		}
		return invalid("body", fmt.Sprintf(`must be valid Unicode: the escape \%s at byte %d is half a surrogate pair`, b[i+1:i+6], off+int64(i)))
	}
	return nil
}

// escapedRune reads the \uXXXX escape b starts with, if it does.
func escapedRune(b []byte) (rune, bool) {
	if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
		return 0, false
	}
	v, err := strconv.ParseUint(string(b[2:6]), 16, 16)
	return rune(v), err == nil
}
