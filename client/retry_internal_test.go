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

// TestRetryJitter: a jittered wait falls between the backoff less its
// jitter and the backoff, and varies; a wait Retry-After asks does not.
func TestRetryJitter(t *testing.T) {
	r := Retry{Attempts: 3, Backoff: 100 * time.Millisecond, MaxBackoff: 2 * time.Second, Jitter: 0.5}
	seen := map[time.Duration]bool{}
	for range 100 {
		wait, again := r.after(2, nil, errors.New("reset"))
		if !again || wait < 100*time.Millisecond || wait > 200*time.Millisecond {
			t.Fatalf("got %s, %v; want a wait from 100ms to 200ms, retried", wait, again)
		}
		seen[wait] = true
	}
	if len(seen) < 10 {
		t.Errorf("100 waits took %d values; want them drawn at random", len(seen))
	}
	h := http.Header{"Retry-After": {"1"}}
	if wait, _ := r.after(1, &response{status: 429, header: h}, nil); wait != time.Second {
		t.Errorf("Retry-After 1: waited %s, want 1s", wait)
	}
}
