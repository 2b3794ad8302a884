package httpapi

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/lapsehq/lapse/storetype"
)

// storeDownError is the store's reason not to be ready when the database
// is unavailable; its text, with the outage's short reason ("connection
// refused"), is the detail of the not-ready problem.
type storeDownError struct{ err *storetype.UnavailableError }

func (e *storeDownError) Error() string { return "database unavailable: " + e.err.Reason() }
func (e *storeDownError) Unwrap() error { return e.err }

// healthz serves GET /healthz: the process is up.
func (s *server) healthz(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// readyz serves GET /readyz: the store is reachable and migrated, and
// the engine is firing.
func (s *server) readyz(w http.ResponseWriter, r *http.Request) {
	if err := s.store.Ready(r.Context()); err != nil {
		var down *storetype.UnavailableError
		if errors.As(storetype.Unavailable(err), &down) {
			err = &storeDownError{down}
		}
		s.fail(w, r, fmt.Errorf("%w: %w", errNotReady, err))
		return
	}
	if s.firing != nil {
		if err := s.firing(); err != nil {
			s.fail(w, r, &notFiringError{err})
			return
		}
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ready"})
}
