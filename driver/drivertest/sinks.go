package drivertest

import (
	"encoding/json"
	"time"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/storetype"
)

// sinkTests test a sink's rows: its position, which only moves forward,
// and its dead letters.
var sinkTests = []test{
	{"Position", testSinkPosition},
	{"DeadLetters", testDeadLetters},
}

// advance stores p in one transaction.
func (f *fixture) advance(p storetype.AdvanceSinkParams) {
	f.t.Helper()
	f.tx(func(tx driver.Executor) { ok(f.t, "AdvanceSink", tx.AdvanceSink(f.ctx, p)) })
}

// sink reads a sink's state.
func (f *fixture) sink(name string) storetype.SinkState {
	f.t.Helper()
	st, err := f.d.Executor().SinkState(f.ctx, name)
	ok(f.t, "SinkState", err)
	return st
}

// testSinkPosition: a sink never seen is at 0; AdvanceSink moves it
// forward only.
func testSinkPosition(f *fixture) {
	want(f.t, "unseen", f.sink("s1").Position, 0)
	for _, tc := range []struct{ to, want int64 }{{5, 5}, {3, 5}, {0, 5}, {9, 9}} {
		f.advance(storetype.AdvanceSinkParams{Sink: "s1", Position: tc.to})
		want(f.t, "position", f.sink("s1").Position, tc.want)
	}
	want(f.t, "other sink", f.sink("s2").Position, 0)
}

// letter is a dead letter of event seq.
func letter(seq int64, attempts int) storetype.DeadLetter {
	return storetype.DeadLetter{Event: storetype.Event{Seq: seq, ID: "ev" + string(rune('0'+seq)), Type: "coupon.claimed",
		Subject: "c1", Time: t0, Data: json.RawMessage(`{"a":1}`)}, Attempts: attempts, Error: "refused", FailedAt: t0.Add(time.Minute)}
}

// deadLetters reads a sink's dead letters.
func (f *fixture) deadLetters(p storetype.DeadLettersParams) []storetype.DeadLetter {
	f.t.Helper()
	got, err := f.d.Executor().DeadLetters(f.ctx, p)
	ok(f.t, "DeadLetters", err)
	return got
}

// wantSeqs fails unless got are the letters of seqs, in order.
func (f *fixture) wantSeqs(what string, got []storetype.DeadLetter, seqs ...int64) {
	f.t.Helper()
	want(f.t, what+": count", len(got), len(seqs))
	for i, s := range seqs {
		want(f.t, what, got[i].Event.Seq, s)
	}
}

// testDeadLetters: AdvanceSink stores dead letters (a letter of the same
// event replaced) and removes the replayed; DeadLetters pages them in
// feed order; ReplayDeadLetters queues them.
func testDeadLetters(f *fixture) {
	f.advance(storetype.AdvanceSinkParams{Sink: "s1", Dead: []storetype.DeadLetter{letter(3, 1), letter(1, 1), letter(2, 1)}})
	f.advance(storetype.AdvanceSinkParams{Sink: "s1", Dead: []storetype.DeadLetter{letter(2, 4)}})
	f.advance(storetype.AdvanceSinkParams{Sink: "s2", Dead: []storetype.DeadLetter{letter(1, 1)}})
	got := f.deadLetters(storetype.DeadLettersParams{Sink: "s1", Limit: 10})
	f.wantSeqs("all", got, 1, 2, 3)
	l := got[1]
	want(f.t, "replaced attempts", l.Attempts, 4)
	want(f.t, "ID", l.Event.ID, letter(2, 4).Event.ID)
	want(f.t, "Type", l.Event.Type, "coupon.claimed")
	want(f.t, "Subject", l.Event.Subject, "c1")
	want(f.t, "Error", l.Error, "refused")
	want(f.t, "Data", string(l.Event.Data), `{"a":1}`)
	wantTime(f.t, "Time", l.Event.Time, t0)
	wantTime(f.t, "FailedAt", l.FailedAt, t0.Add(time.Minute))
	f.wantSeqs("page", f.deadLetters(storetype.DeadLettersParams{Sink: "s1", After: 1, Limit: 1}), 2)
	f.wantSeqs("none queued", f.deadLetters(storetype.DeadLettersParams{Sink: "s1", QueuedOnly: true, Limit: 10}))
	replayed := read(f, "ReplayDeadLetters", func(tx driver.Executor) (int64, error) { return tx.ReplayDeadLetters(f.ctx, "s1") })
	want(f.t, "ReplayDeadLetters", replayed, 3)
	f.wantSeqs("queued", f.deadLetters(storetype.DeadLettersParams{Sink: "s1", QueuedOnly: true, Limit: 10}), 1, 2, 3)
	f.advance(storetype.AdvanceSinkParams{Sink: "s1", Replayed: []int64{1, 3}})
	f.wantSeqs("replayed removed", f.deadLetters(storetype.DeadLettersParams{Sink: "s1", Limit: 10}), 2)
	st := f.sink("s1")
	want(f.t, "SinkState dead letters", st.DeadLetters, 1)
	want(f.t, "SinkState queued", st.Queued, 1)
	f.wantSeqs("other sink", f.deadLetters(storetype.DeadLettersParams{Sink: "s2", Limit: 10}), 1)
}
