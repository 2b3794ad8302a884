package storetype

import (
	"database/sql"
	sqldriver "database/sql/driver"
	"errors"
	"io"
	"net"
	"syscall"
)

// ErrUnavailable: the database cannot take the request now (it is
// unreachable, restarting, or has no primary during a failover). Nothing
// was decided: the same request may succeed a moment later. A backend's
// Classify returns it for its own outage codes; IsUnavailable also sees
// it in the connection failures any backend returns.
var ErrUnavailable = errors.New("database unavailable")

// UnavailableError is an outage: errors.Is sees ErrUnavailable and Err,
// the backend's error, through it.
type UnavailableError struct{ Err error }

func (e *UnavailableError) Error() string   { return "database unavailable: " + e.Err.Error() }
func (e *UnavailableError) Unwrap() []error { return []error{ErrUnavailable, e.Err} }

// Reason is the short cause of the outage: the innermost error's text
// ("connection refused", say).
func (e *UnavailableError) Reason() string {
	err := e.Err
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err.Error()
		}
		err = next
	}
}

// Unavailable returns err as an *UnavailableError if it is an outage (see
// IsUnavailable), otherwise err as it is.
func Unavailable(err error) error {
	var u *UnavailableError
	if errors.As(err, &u) || !IsUnavailable(err) {
		return err
	}
	return &UnavailableError{err}
}

// IsUnavailable reports whether err is an outage: ErrUnavailable, a
// connection failure of any backend (refused or reset, the server gone
// mid-answer (EOF), a network timeout, a connection database/sql found
// bad or closed). A backend's own outage codes are its Classify's.
func IsUnavailable(err error) bool {
	var netErr net.Error
	switch {
	case err == nil:
		return false
	case errors.Is(err, ErrUnavailable),
		errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET),
		errors.Is(err, syscall.ECONNABORTED), errors.Is(err, syscall.EPIPE),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, sqldriver.ErrBadConn), errors.Is(err, sql.ErrConnDone):
		return true
	}
	return errors.As(err, &netErr)
}
