package storetest

import (
	"testing"
	"time"

	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

var sinkTests = []test{
	{"Unknown", testSinkUnknown},
	{"Advance", testSinkAdvance},
	{"DeadLetters", testDeadLetters},
	{"ReplayIdempotent", testReplayIdempotent},
	{"Prune", testPrune},
	{"DeadLetterOutlivesPrune", testDeadLetterOutlivesPrune},
}

func (f *fixture) sinkState(sink string) storetype.SinkState {
	f.t.Helper()
	return get(f, "SinkState", f.s.SinkState, sink)
}

func (f *fixture) wantSink(what, sink string, want storetype.SinkState) {
	f.t.Helper()
	if got := f.sinkState(sink); got != want {
		f.t.Fatalf("%s: SinkState(%s): got %+v, want %+v", what, sink, got, want)
	}
}

func (f *fixture) advance(p storetype.AdvanceSinkParams) {
	f.t.Helper()
	if err := f.s.AdvanceSink(f.ctx, p); err != nil {
		f.t.Fatalf("AdvanceSink(%s to %d): %v", p.Sink, p.Position, err)
	}
}

func (f *fixture) deadLetters(p storetype.DeadLettersParams) []storetype.DeadLetter {
	f.t.Helper()
	return get(f, "DeadLetters", f.s.DeadLetters, p)
}

// wantLetter fails unless got is the letter want, its event whole.
func (f *fixture) wantLetter(what string, got, want storetype.DeadLetter) {
	f.t.Helper()
	g, w := got.Event, want.Event
	if g.Seq != w.Seq || g.ID != w.ID || g.Type != w.Type || g.Subject != w.Subject || !g.Time.Equal(w.Time) || string(g.Data) != string(w.Data) {
		f.t.Fatalf("%s: event: got %+v, want %+v", what, g, w)
	}
	if got.Attempts != want.Attempts || got.Error != want.Error || !got.FailedAt.Equal(want.FailedAt) || got.Queued != want.Queued {
		f.t.Fatalf("%s: got %d attempts, error %q, failed at %s, queued %v; want %d, %q, %s, %v", what,
			got.Attempts, got.Error, fmtTime(got.FailedAt), got.Queued, want.Attempts, want.Error, fmtTime(want.FailedAt), want.Queued)
	}
}

// testSinkUnknown: a sink never seen is at the start of the feed, with
// every event ahead of it.
func testSinkUnknown(t *testing.T, open opener) {
	f := newFixture(t, open)
	f.wantSink("empty store", "hook", storetype.SinkState{})
	f.history()
	f.wantSink("after five events", "hook", storetype.SinkState{Lag: 5})
}

// testSinkAdvance: a position only moves forward, and sinks move apart.
func testSinkAdvance(t *testing.T, open opener) {
	f := newFixture(t, open)
	f.history()
	es := f.events()
	f.advance(storetype.AdvanceSinkParams{Sink: "a", Position: es[1].Seq})
	f.wantSink("advanced", "a", storetype.SinkState{Position: es[1].Seq, Lag: 3})
	f.advance(storetype.AdvanceSinkParams{Sink: "a", Position: es[0].Seq})
	f.wantSink("moved back", "a", storetype.SinkState{Position: es[1].Seq, Lag: 3})
	f.advance(storetype.AdvanceSinkParams{Sink: "a"})
	f.wantSink("position 0", "a", storetype.SinkState{Position: es[1].Seq, Lag: 3})
	f.wantSink("other sink", "b", storetype.SinkState{Lag: 5})
	f.advance(storetype.AdvanceSinkParams{Sink: "a", Position: es[4].Seq})
	f.wantSink("at the head", "a", storetype.SinkState{Position: es[4].Seq})
}

// testDeadLetters: letters keep their event whole, list in feed order per
// sink, queue for replay, and leave when a replay delivers them.
func testDeadLetters(t *testing.T, open opener) {
	f := newFixture(t, open)
	f.history()
	es := f.events()
	failed := t0.Add(time.Hour)
	l1 := storetype.DeadLetter{Event: es[3], Attempts: 10, Error: "503 Service Unavailable", FailedAt: failed}
	l0 := storetype.DeadLetter{Event: es[1], Attempts: 1, Error: "parked", FailedAt: failed.Add(time.Millisecond)}
	f.advance(storetype.AdvanceSinkParams{Sink: "a", Position: es[4].Seq, Dead: []storetype.DeadLetter{l1, l0}})
	f.wantSink("two letters", "a", storetype.SinkState{Position: es[4].Seq, DeadLetters: 2})
	f.wantSink("other sink", "b", storetype.SinkState{Lag: 5})
	ds := f.deadLetters(storetype.DeadLettersParams{Sink: "a", Limit: 10})
	if len(ds) != 2 {
		t.Fatalf("dead letters: got %d, want 2", len(ds))
	}
	f.wantLetter("first letter", ds[0], l0)
	f.wantLetter("second letter", ds[1], l1)
	if page := f.deadLetters(storetype.DeadLettersParams{Sink: "a", After: es[1].Seq, Limit: 10}); len(page) != 1 || page[0].Event.ID != es[3].ID {
		t.Fatalf("letters after the first: got %d, want the second", len(page))
	}
	if page := f.deadLetters(storetype.DeadLettersParams{Sink: "a", Limit: 1}); len(page) != 1 || page[0].Event.ID != es[1].ID {
		t.Fatalf("one letter: got %d, want the first", len(page))
	}
	if ds := f.deadLetters(storetype.DeadLettersParams{Sink: "b", Limit: 10}); len(ds) != 0 {
		t.Fatalf("other sink's letters: got %d, want none", len(ds))
	}
	if ds := f.deadLetters(storetype.DeadLettersParams{Sink: "a", QueuedOnly: true, Limit: 10}); len(ds) != 0 {
		t.Fatalf("queued before a replay: got %d, want none", len(ds))
	}

	n, err := f.s.ReplayDeadLetters(f.ctx, store.ReplayDeadLettersParams{Sink: "a"})
	if err != nil || n != 2 {
		t.Fatalf("ReplayDeadLetters(a): got %d, %v; want 2", n, err)
	}
	if n, err := f.s.ReplayDeadLetters(f.ctx, store.ReplayDeadLettersParams{Sink: "b"}); err != nil || n != 0 {
		t.Fatalf("ReplayDeadLetters(b): got %d, %v; want 0", n, err)
	}
	f.wantSink("queued", "a", storetype.SinkState{Position: es[4].Seq, DeadLetters: 2, Queued: 2})
	queued := f.deadLetters(storetype.DeadLettersParams{Sink: "a", QueuedOnly: true, Limit: 10})
	if len(queued) != 2 || !queued[0].Queued || !queued[1].Queued {
		t.Fatalf("queued letters: got %+v, want both, queued", queued)
	}

	// The replay delivers the first and fails the second again.
	again := storetype.DeadLetter{Event: es[3], Attempts: 3, Error: "timeout", FailedAt: failed.Add(time.Minute)}
	f.advance(storetype.AdvanceSinkParams{Sink: "a", Replayed: []int64{es[1].Seq}, Dead: []storetype.DeadLetter{again}})
	f.wantSink("after the replay", "a", storetype.SinkState{Position: es[4].Seq, DeadLetters: 1})
	ds = f.deadLetters(storetype.DeadLettersParams{Sink: "a", Limit: 10})
	if len(ds) != 1 {
		t.Fatalf("letters after the replay: got %d, want 1", len(ds))
	}
	f.wantLetter("letter failed again", ds[0], again)
}

// testReplayIdempotent: a replay under an idempotency key is answered from
// the store when retried.
func testReplayIdempotent(t *testing.T, open opener) {
	f := newFixture(t, open)
	f.history()
	es := f.events()
	f.advance(storetype.AdvanceSinkParams{Sink: "a", Dead: []storetype.DeadLetter{{Event: es[0], Attempts: 1, Error: "x", FailedAt: t0}}})
	p := store.ReplayDeadLettersParams{Sink: "a", Idem: scopedIdem("r1", t0)}
	if n, err := f.s.ReplayDeadLetters(f.ctx, p); err != nil || n != 1 {
		t.Fatalf("first replay: got %d, %v; want 1", n, err)
	}
	_, err := f.s.ReplayDeadLetters(f.ctx, p)
	f.wantReplay("retried replay", err, int64(1), t0)
}

// testPrune: pruning takes the oldest records (here one event each),
// never past Through or Before nor more than Limit, and a sink's lag
// counts only what is left.
func testPrune(t *testing.T, open opener) {
	f := newFixture(t, open)
	f.history()
	es := f.events()
	prune := func(through int64, limit int, want int64) {
		t.Helper()
		n, err := f.s.PruneEvents(f.ctx, store.PruneParams{Through: through, Before: later, Limit: limit})
		if err != nil || n != want {
			t.Fatalf("PruneEvents(through %d, limit %d): got %d, %v; want %d", through, limit, n, err, want)
		}
	}
	if n, err := f.s.PruneEvents(f.ctx, store.PruneParams{Through: es[3].Seq, Before: es[0].Time, Limit: 10}); err != nil || n != 0 {
		t.Fatalf("PruneEvents(before the first event's time): got %d, %v; want 0", n, err)
	}
	prune(es[3].Seq, 2, 2)
	if got := f.events(); len(got) != 3 || got[0].ID != es[2].ID {
		t.Fatalf("feed after pruning two: got %s, want the last three", fmtEvents(got))
	}
	prune(es[3].Seq, 10, 2)
	prune(es[3].Seq, 10, 0)
	if got := f.events(); len(got) != 1 || got[0].ID != es[4].ID {
		t.Fatalf("feed after pruning through the fourth: got %s, want the last", fmtEvents(got))
	}
	f.wantSink("sink at 0", "a", storetype.SinkState{Lag: 1})
	if st := f.stats(t0); st.Outbox != 1 {
		t.Fatalf("outbox after pruning: got %d, want 1", st.Outbox)
	}
}

// testDeadLetterOutlivesPrune: a letter still has its whole event after
// the feed was pruned past it.
func testDeadLetterOutlivesPrune(t *testing.T, open opener) {
	f := newFixture(t, open)
	f.history()
	es := f.events()
	l := storetype.DeadLetter{Event: es[0], Attempts: 2, Error: "x", FailedAt: t0}
	f.advance(storetype.AdvanceSinkParams{Sink: "a", Position: es[4].Seq, Dead: []storetype.DeadLetter{l}})
	if _, err := f.s.PruneEvents(f.ctx, store.PruneParams{Through: es[4].Seq, Before: later, Limit: 100}); err != nil {
		t.Fatalf("PruneEvents: %v", err)
	}
	ds := f.deadLetters(storetype.DeadLettersParams{Sink: "a", Limit: 10})
	if len(ds) != 1 {
		t.Fatalf("letters after pruning: got %d, want 1", len(ds))
	}
	f.wantLetter("letter after pruning", ds[0], l)
}
