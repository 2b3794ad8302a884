package engine

import (
	"context"
	"log/slog"
	"testing"
	"time"
)

// roundTrip is a database clock behind the local one by behind, read
// after the first readAt of a round trip of rtt on the local clock at
// *local, which it moves on by rtt.
type roundTrip struct {
	local       *time.Time
	behind      time.Duration
	rtt, readAt time.Duration
}

func (r roundTrip) Clock(context.Context) (time.Time, error) {
	db := r.local.Add(r.readAt - r.behind)
	*r.local = r.local.Add(r.rtt)
	return db, nil
}

// TestClockNeverLate: whenever in the measurement's round trip the
// database reads its clock, the corrected clock reads no later than the
// database's, and no more than the round trip earlier.
func TestClockNeverLate(t *testing.T) {
	const behind, rtt = 900 * time.Millisecond, 40 * time.Millisecond
	for _, readAt := range []time.Duration{0, rtt / 2, rtt} {
		local := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		clock := NewClock(func() time.Time { return local })
		var reported time.Duration
		g := &clockGuard{src: roundTrip{&local, behind, rtt, readAt}, local: clock.local, db: clock,
			bound: time.Second, log: slog.New(slog.DiscardHandler), resumed: func() {},
			report: func(_ context.Context, d time.Duration) { reported = d }, err: errUnmeasured}
		g.measure(t.Context())
		if reported < behind-rtt/2 || reported > behind+rtt/2 {
			t.Errorf("read at %s of the round trip: reported skew %s, want %s within half the round trip", readAt, reported, behind)
		}
		db := local.Add(-behind)
		if got := clock.Now(); got.After(db) || db.Sub(got) > rtt {
			t.Errorf("read at %s of the round trip: the clock reads %s, the database's %s", readAt, got, db)
		}
	}
}
