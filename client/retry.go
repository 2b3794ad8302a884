package client

import (
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"
)

// Retry says how a call is retried after a network error, a 5xx or a 429.
// Anything else, a 4xx problem included, is answered at once.
type Retry struct {
	// Attempts is the most attempts a call makes, the first included;
	// below 1 means 1.
	Attempts int
	// Backoff is the wait before the first retry, doubled before each
	// next, up to MaxBackoff.
	Backoff time.Duration
	// MaxBackoff bounds a wait, one a Retry-After header asks included.
	MaxBackoff time.Duration
	// Jitter, from 0 to 1, is the share of each backoff drawn at random:
	// a wait is the backoff less up to Jitter of it, so that clients
	// failed together do not retry together. A wait Retry-After asks is
	// kept as it is.
	Jitter float64
}

// DefaultRetry makes 4 attempts, waiting 100 ms, 200 ms and 400 ms less
// up to half of each at random, or what Retry-After asks, up to 10 s.
var DefaultRetry = Retry{Attempts: 4, Backoff: 100 * time.Millisecond, MaxBackoff: 10 * time.Second, Jitter: 0.5}

// after says whether attempt, which got res or err, is to be retried, and
// after how long.
func (r Retry) after(attempt int, res *response, err error) (time.Duration, bool) {
	if attempt >= r.Attempts {
		return 0, false
	}
	if err == nil && res.status < 500 && res.status != http.StatusTooManyRequests {
		return 0, false
	}
	wait := r.Backoff << (attempt - 1)
	wait -= time.Duration(min(max(r.Jitter, 0), 1) * rand.Float64() * float64(wait))
	if res != nil {
		if secs, perr := strconv.Atoi(res.header.Get("Retry-After")); perr == nil && secs >= 0 {
			wait = time.Duration(secs) * time.Second
		} else if at, perr := http.ParseTime(res.header.Get("Retry-After")); perr == nil {
			wait = time.Until(at)
		}
	}
	return max(0, min(wait, r.MaxBackoff)), true
}
