package httpapi

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"
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

// formatDuration writes d as a Go duration string without zero tails:
// "72h", "30m", "1h30m" rather than "72h0m0s".
func formatDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") { // "30m0s", "72h0m0s"
		s = s[:len(s)-2]
	}
	if strings.HasSuffix(s, "h0m") { // "72h0m"
		s = s[:len(s)-2]
	}
	return s
}

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
