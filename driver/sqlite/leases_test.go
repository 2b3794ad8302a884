package sqlite_test

import (
	"testing"
	"time"

	"github.com/lapsehq/lapse/driver/sqlite"
)

// TestClock: the database's clock is SQLite's, to the millisecond: it
// reads between two readings of the local clock, which SQLite's shares,
// the first cut to the millisecond.
func TestClock(t *testing.T) {
	s := open(t, tempPath(t), sqlite.Options{})
	for range 5 {
		before := time.Now().Truncate(time.Millisecond)
		got, err := s.Clock(t.Context())
		after := time.Now()
		if err != nil {
			t.Fatalf("Clock: %v", err)
		}
		if got.Before(before) || got.After(after) {
			t.Fatalf("Clock = %s, want between %s and %s", got.Format(time.RFC3339Nano), before.Format(time.RFC3339Nano), after.Format(time.RFC3339Nano))
		}
		if got.Location() != time.UTC {
			t.Fatalf("Clock = %s, want UTC", got)
		}
	}
}
