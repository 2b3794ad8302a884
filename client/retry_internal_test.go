package client

import (
	"errors"
	"net/http"
	"testing"
	"time"
)

// TestRetryAfter walks which answers are retried, after how long, and
// that attempts are bounded.
func TestRetryAfter(t *testing.T) {
	r := Retry{Attempts: 3, Backoff: 100 * time.Millisecond, MaxBackoff: 2 * time.Second}
	answer := func(status int, retryAfter string) *response {
		h := http.Header{}
		if retryAfter != "" {
			h.Set("Retry-After", retryAfter)
		}
		return &response{status: status, header: h}
	}
	for _, c := range []struct {
		name    string
		attempt int
		res     *response
		err     error
		wait    time.Duration
		again   bool
	}{
		{"success", 1, answer(200, ""), nil, 0, false},
		{"a problem", 1, answer(409, ""), nil, 0, false},
		{"a network error", 1, nil, errors.New("reset"), 100 * time.Millisecond, true},
		{"backs off", 2, nil, errors.New("reset"), 200 * time.Millisecond, true},
		{"bounded", 3, nil, errors.New("reset"), 0, false},
		{"5xx", 1, answer(503, ""), nil, 100 * time.Millisecond, true},
		{"429 with Retry-After", 1, answer(429, "1"), nil, time.Second, true},
		{"Retry-After capped", 1, answer(429, "60"), nil, 2 * time.Second, true},
		{"Retry-After 0", 2, answer(503, "0"), nil, 0, true},
		{"bad Retry-After", 1, answer(503, "soon"), nil, 100 * time.Millisecond, true},
	} {
		wait, again := r.after(c.attempt, c.res, c.err)
		if wait != c.wait || again != c.again {
			t.Errorf("%s: got %s, %v; want %s, %v", c.name, wait, again, c.wait, c.again)
		}
	}
}
