package outbox

import (
	"math/rand/v2"
	"time"
)

// backoff is the wait after the attempt-th failure in a row: base doubled
// attempt-1 times, at most ceiling, of which the upper half is random so
// that sinks failing together do not retry in step.
func backoff(base, ceiling time.Duration, attempt int) time.Duration {
	d := ceiling
	if attempt < 32 {
		if b := base << (attempt - 1); b > 0 && b < ceiling {
			d = b
		}
	}
	return d/2 + rand.N(d/2+1)
}
