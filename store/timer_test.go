package store

import (
	"testing"
	"time"

	"github.com/lapsehq/lapse/storetype"
)

// TestKnownTimers: knownTimers vouches only for committed timers beyond
// knownAhead, forgets them all on forget and takes none from a
// transaction that began before it, and past knownMax keeps only those
// still beyond knownAhead, or none if they are too many.
func TestKnownTimers(t *testing.T) {
	now := time.Now()
	timer := func(ahead time.Duration) storetype.Timer {
		return storetype.Timer{Kind: storetype.TimerClose, Due: storetype.BucketOf(now.Add(ahead))}
	}
	far, near := timer(time.Hour), timer(knownAhead/2)
	var k knownTimers
	if k.has(far) {
		t.Fatal("an empty knownTimers vouches for a timer")
	}
	k.add([]storetype.Timer{far, near}, k.generation())
	if !k.has(far) {
		t.Fatal("a committed timer an hour ahead is not known")
	}
	if k.has(near) {
		t.Fatalf("a committed timer %s ahead is known; want only beyond %s", knownAhead/2, knownAhead)
	}
	if len(k.m) != 1 {
		t.Fatalf("holds %d timers, want only the one beyond knownAhead", len(k.m))
	}
	began := k.generation()
	k.forget()
	if k.has(far) {
		t.Fatal("a timer is known after forget")
	}
	k.add([]storetype.Timer{far}, began)
	if k.has(far) {
		t.Fatal("a timer is known from a transaction that began before the forget")
	}

	many := make([]storetype.Timer, knownMax+1)
	for i := range many {
		many[i] = timer(time.Hour + time.Duration(i)*storetype.TimerBucket)
	}
	k.add(many[:knownMax], k.generation())
	if len(k.m) != knownMax || !k.has(many[0]) {
		t.Fatalf("holds %d timers after adding knownMax, want all %d", len(k.m), knownMax)
	}
	k.add(many[knownMax:], k.generation())
	if len(k.m) != 0 {
		t.Fatalf("holds %d timers past knownMax, all beyond knownAhead; want none", len(k.m))
	}
}
