package bench

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/lapsehq/lapse/coupon"
)

// TestRacersOf: racer operations are counted as succeeded, refused (at or
// after T0), early (refused before T0) or failed, and their latency
// summarised over all of them.
func TestRacersOf(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	ops := []racerOp{
		{now: t0.Add(-ms(50)), took: ms(1)},
		{now: t0.Add(-ms(40)), took: ms(2), err: fmt.Errorf("lock: %w", coupon.ErrExpired)},
		{now: t0, took: ms(3), err: coupon.ErrExpired},
		{now: t0.Add(ms(10)), took: ms(4), err: fmt.Errorf("redeem: %w", coupon.ErrInvalidState)},
		{now: t0.Add(ms(20)), took: ms(90), err: errors.New("connection reset")},
	}
	got := racersOf(ops, t0)
	want := Racers{N: 5, Succeeded: 1, Refused: 2, Early: 1, Failed: 1,
		Quantiles: Quantiles{P50: 0.003, P99: 0.090, Max: 0.090}}
	if got != want {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	if got := racersOf(nil, t0); got != (Racers{}) {
		t.Fatalf("no racers: got %+v, want zero", got)
	}
}
