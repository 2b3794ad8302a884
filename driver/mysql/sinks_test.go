package mysql_test

import (
	"testing"

	"github.com/lapsehq/lapse/driver/mysql"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// TestSinkNamesCompareBytes: a sink named with a trailing space is
// another sink, with a position and dead letters of its own, as on the
// other stores (see TestIDsCompareBytes).
func TestSinkNamesCompareBytes(t *testing.T) {
	s := open(t, freshDB(t), mysql.Options{})
	dead := storetype.DeadLetter{Event: storetype.Event{Seq: 7, ID: "evt_1", Type: "coupon.claimed", Subject: "cpn_1", Time: t0, Data: []byte("{}")},
		Attempts: 1, Error: "x", FailedAt: t0}
	if err := s.AdvanceSink(t.Context(), storetype.AdvanceSinkParams{Sink: "hook", Position: 9, Dead: []storetype.DeadLetter{dead}}); err != nil {
		t.Fatalf("AdvanceSink(hook): %v", err)
	}
	for _, name := range []string{"hook ", "hook  "} {
		st, err := s.SinkState(t.Context(), name)
		if err != nil || st != (storetype.SinkState{}) {
			t.Fatalf("SinkState(%q): got %+v, %v; want the zero state", name, st, err)
		}
		if n, err := s.ReplayDeadLetters(t.Context(), store.ReplayDeadLettersParams{Sink: name}); err != nil || n != 0 {
			t.Fatalf("ReplayDeadLetters(%q): got %d, %v; want 0", name, n, err)
		}
	}
	if st, err := s.SinkState(t.Context(), "hook"); err != nil || st != (storetype.SinkState{Position: 9, DeadLetters: 1}) {
		t.Fatalf("SinkState(hook): got %+v, %v; want position 9 and one dead letter", st, err)
	}
}
