package httpapi

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/lapsehq/lapse/store"
)

// timeLayout is RFC 3339 with milliseconds; times are written in UTC.
const timeLayout = "2006-01-02T15:04:05.000Z07:00"

// formatTime writes t in UTC with milliseconds.
func formatTime(t time.Time) string { return t.UTC().Format(timeLayout) }

// formatOptionalTime is formatTime, or null for the zero time.
func formatOptionalTime(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	s := formatTime(t)
	return &s
}

// formatDuration writes d as the API writes durations.
func formatDuration(d time.Duration) string { return store.FormatDuration(d) }

// optionalString is s, or null for "".
func optionalString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// writeJSON answers with status and v as JSON.
func writeJSON(w http.ResponseWriter, status int, v any) {
	write(w, status, "application/json", mustJSON(v))
}

// writeResult answers 200 with the JSON of view(), or, if err is not nil,
// the problem err is.
func (s *server) writeResult(w http.ResponseWriter, r *http.Request, err error, view func() any) {
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, view())
}

func write(w http.ResponseWriter, status int, contentType string, body []byte) {
	w.Header().Set("Content-Type", contentType)
	w.WriteHeader(status)
	w.Write(body) // a client gone away is not ours to report
}

// mustJSON marshals the package's own response types, made only of
// strings, numbers and valid JSON: a failure is a programming error.
func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic("httpapi: marshal response: " + err.Error())
	}
	return b
}
