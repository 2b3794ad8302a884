package outbox

import (
	"testing"
	"time"
)

// TestBackoff: the wait doubles from base up to the ceiling, its upper
// half random.
func TestBackoff(t *testing.T) {
	base, ceiling := 200*time.Millisecond, 30*time.Second
	for attempt := 1; attempt <= 70; attempt++ {
		want := ceiling
		if attempt <= 8 {
			want = base << (attempt - 1) // 200ms … 25.6s
		}
		for range 50 {
			if got := backoff(base, ceiling, attempt); got < want/2 || got > want {
				t.Fatalf("backoff(attempt %d): got %s, want from %s to %s", attempt, got, want/2, want)
			}
		}
	}
}
