package bench

import (
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
