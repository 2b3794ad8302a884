package httpapi

import (
	"log/slog"
	"net/http"
	"time"
)

// logAccess serves r with h and logs, at debug level, a line of it: its
// method, path, status and duration, and (requestLog) its request ID.
func (s *server) logAccess(w http.ResponseWriter, r *http.Request, h http.HandlerFunc) {
	start := time.Now() // a duration, not the lapse clock's time
	rec := &statusWriter{ResponseWriter: w, status: http.StatusOK}
	h(rec, r)
	s.log.DebugContext(r.Context(), "httpapi: request", slog.String("method", r.Method), slog.String("path", r.URL.Path),
		slog.Int("status", rec.status), slog.Duration("duration", time.Since(start)))
}

// statusWriter keeps the status of the answer it passes on: 200 unless
// the handler writes another first.
type statusWriter struct {
	http.ResponseWriter
	status  int
	written bool
}

func (w *statusWriter) WriteHeader(status int) {
	if !w.written {
		w.status, w.written = status, true
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	w.written = true
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection's deadlines.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
