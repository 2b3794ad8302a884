package bench

import (
	"slices"
	"testing"
	"time"
)

// TestSummarizeAndSeries: stats are taken over all operations and per
// operation, and the p99 series has one point per non-empty window.
func TestSummarizeAndSeries(t *testing.T) {
	origin := time.Date(2026, 11, 11, 0, 0, 0, 0, time.UTC)
	ss := []sample{
		{start: origin, took: time.Millisecond, op: opRead},
		{start: origin.Add(100 * time.Millisecond), took: 3 * time.Millisecond, op: opLock, failed: true},
		{start: origin.Add(600 * time.Millisecond), took: 2 * time.Millisecond, op: opRedeem},
	}
	all, ops := summarize(ss)
	if all.N != 3 || all.Failed != 1 || all.P50 != 0.002 || all.Max != 0.003 {
		t.Fatalf("all: got %+v, want 3 ops, 1 failed, p50 2ms, max 3ms", all)
	}
	if ops["lock"].N != 1 || ops["lock"].P99 != 0.003 || ops["read"].N != 1 || ops["redeem"].N != 1 {
		t.Fatalf("per op: got %+v", ops)
	}
	got := series(ss, origin, 0, time.Second, 250*time.Millisecond, p99)
	want := []Point{{T: 0.125, V: 0.003}, {T: 0.625, V: 0.002}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("p99 series: got %v, want %v", got, want)
	}
}

// TestWindowP99s: an idle phase reports the p99 of each whole window,
// in order; an empty window's is 0 and a part window is left out.
func TestWindowP99s(t *testing.T) {
	origin := time.Date(2026, 11, 11, 0, 0, 0, 0, time.UTC)
	rec := &recorder{}
	for i, took := range []time.Duration{time.Millisecond, 4 * time.Millisecond, 9 * time.Millisecond, 2 * time.Millisecond} {
		rec.add(sample{start: origin.Add(time.Duration(i) * idleWindow / 2), took: took, op: opLock})
	}
	got := windowP99s(rec, origin, origin.Add(3*idleWindow-time.Millisecond))
	if want := []float64{0.004, 0.009}; !slices.Equal(got, want) {
		t.Fatalf("window p99s %v, want %v (two whole windows of two writes each; the third cut short)", got, want)
	}
	if got := windowP99s(rec, origin.Add(2*idleWindow), origin.Add(3*idleWindow)); !slices.Equal(got, []float64{0}) {
		t.Fatalf("an empty window: %v, want [0]", got)
	}
}

// TestReadsRecordedApart: the load records its wallet reads apart from its
// writes, so that a result reports the two apart.
func TestReadsRecordedApart(t *testing.T) {
	l := &load{rec: &recorder{}, reads: &recorder{}}
	start := time.Now()
	l.timed(opRead, func() error { return nil })
	l.timed(opLock, func() error { return nil })
	l.timed(opRedeem, func() error { return nil })
	end := time.Now().Add(time.Second)
	reads, writes := l.reads.between(start, end), l.rec.between(start, end)
	if len(reads) != 1 || reads[0].op != opRead {
		t.Fatalf("reads: got %+v, want the one read", reads)
	}
	if _, ops := summarize(writes); len(writes) != 2 || len(ops) != 2 || ops["read"].N != 0 {
		t.Fatalf("writes: got %+v (ops %v), want the lock and the redeem", writes, ops)
	}
}
