package httpapi

import (
	"fmt"
	"net/http"
)

// healthz serves GET /healthz: the process is up.
func (s *server) healthz(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// readyz serves GET /readyz: the store is reachable and migrated, and
// the engine is firing.
func (s *server) readyz(w http.ResponseWriter, r *http.Request) {
	if err := s.store.Ready(r.Context()); err != nil {
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
