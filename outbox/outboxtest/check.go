package outboxtest

import (
	"context"
	"slices"
	"testing"

	"github.com/lapsehq/lapse/outbox"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// Check fails t unless got holds every event of want and nothing else,
// each as its CloudEvent and each copy of an ID equal to the first, and,
// taking each ID's first arrival, every subject's events in feed order.
// It returns how many duplicates got holds.
func Check(t testing.TB, want []storetype.Event, got []Event) int {
	t.Helper()
	byID := map[string]storetype.Event{}
	wantOrder := map[string][]string{}
	for _, e := range want {
		byID[e.ID] = e
		wantOrder[e.Subject] = append(wantOrder[e.Subject], e.ID)
	}
	first := map[string]Event{}
	gotOrder := map[string][]string{}
	dups := 0
	for _, g := range got {
		e, ok := byID[g.ID]
		if !ok {
			t.Fatalf("received event %s that is not in the feed", g.ID)
		}
		if f, seen := first[g.ID]; seen {
			if !same(f, g) {
				t.Fatalf("duplicate of %s differs: %+v then %+v", g.ID, f, g)
			}
			dups++
			continue
		}
		first[g.ID] = g
		wantCloudEvent(t, e, g)
		gotOrder[g.Subject] = append(gotOrder[g.Subject], g.ID)
	}
	if len(first) != len(want) {
		t.Fatalf("distinct events received: got %d, want %d", len(first), len(want))
	}
	for subject, ids := range wantOrder {
		if !slices.Equal(gotOrder[subject], ids) {
			t.Fatalf("events of %s: got them in order %v, want %v", subject, gotOrder[subject], ids)
		}
	}
	return dups
}

// CheckOnce is Check, and fails t if got holds any duplicate: what was
// delivered without a failure arrives once.
func CheckOnce(t testing.TB, what string, want []storetype.Event, got []Event) {
	t.Helper()
	if dups := Check(t, want, got); dups != 0 {
		t.Fatalf("%s: %d duplicates, want each event once", what, dups)
	}
}

// Feed reads the whole outbox of st.
func Feed(t testing.TB, st outbox.Store) []storetype.Event {
	t.Helper()
	var out []storetype.Event
	after := int64(0)
	for {
		page, err := st.Events(context.Background(), store.EventsParams{After: after, Limit: 1000})
		if err != nil {
			t.Fatalf("read feed: %v", err)
		}
		if len(page) == 0 {
			return out
		}
		out = append(out, page...)
		after = page[len(page)-1].Seq
	}
}

// OfType returns the events of evs of one type, in their order.
func OfType(evs []storetype.Event, typ string) []storetype.Event {
	var out []storetype.Event
	for _, e := range evs {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}

func same(a, b Event) bool {
	return a.ID == b.ID && a.Type == b.Type && a.Subject == b.Subject && a.Time == b.Time && string(a.Data) == string(b.Data)
}

// wantCloudEvent fails unless g is e as a CloudEvent.
func wantCloudEvent(t testing.TB, e storetype.Event, g Event) {
	t.Helper()
	if g.SpecVersion != "1.0" || g.Source != outbox.Source || g.Type != e.Type || g.Subject != e.Subject ||
		g.Time != e.Time.UTC().Format(storetype.TimeFormat) || g.DataContentType != "application/json" || string(g.Data) != string(e.Data) {
		t.Fatalf("event %s: got %+v, want the CloudEvent of %+v", e.ID, g, e)
	}
}
