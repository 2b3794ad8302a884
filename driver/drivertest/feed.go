package drivertest

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"time"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/storetype"
)

// feedTests test the outbox records: Commit writes those it is handed at
// the next feed positions, the feed reads them back by position, the
// once-only lookup finds a record by its ID, and pruning deletes them
// from the front.
var feedTests = []test{
	{"CommitRead", testFeedCommitRead},
	{"Pages", testFeedPages},
	{"EventStored", testEventStored},
	{"Prune", testPruneEvents},
	{"CommitTimers", testCommitTimers},
}

// record returns a record of n events whose IDs begin with id, at t0
// plus at seconds.
func record(id string, n, at int) storetype.Record {
	events := make([]storetype.Event, n)
	for i := range events {
		events[i] = storetype.Event{ID: fmt.Sprintf("%s.%d", id, i), Type: "coupon.claimed", Subject: "c1",
			Time: t0.Add(time.Duration(at) * time.Second), Data: json.RawMessage(fmt.Sprintf(`{"i":%d}`, i))}
	}
	body, err := json.Marshal(events)
	if err != nil {
		panic(err)
	}
	return storetype.Record{N: n, ID: events[0].ID, Time: events[n-1].Time, Body: body}
}

// commit writes records in a transaction of their own and returns the
// timers its Commit returned.
func (f *fixture) commit(records ...storetype.Record) []storetype.Timer {
	f.t.Helper()
	tx, err := f.d.Begin(f.ctx, false)
	ok(f.t, "Begin", err)
	defer tx.Rollback()
	timers, err := tx.Commit(f.ctx, records)
	ok(f.t, "Commit", err)
	return timers
}

// feed reads the records holding the events after after, up to limit.
func (f *fixture) feed(after int64, limit int) []storetype.Record {
	f.t.Helper()
	var got []storetype.Record
	each := func(r storetype.Record) bool {
		got = append(got, r)
		return true
	}
	ok(f.t, "Records", f.d.Executor().Records(f.ctx, driver.RecordsParams{After: after, Limit: limit, Each: each}))
	return got
}

// feedEnd reads the last position the feed handed out, after a read of
// the feed (where positions are handed out after the commit, that read
// hands them out).
func (f *fixture) feedEnd() int64 {
	f.t.Helper()
	f.feed(0, 1)
	end, err := f.d.Executor().FeedEnd(f.ctx)
	ok(f.t, "FeedEnd", err)
	return end
}

// wantRecords fails unless got are want, in order, at the positions
// ending at lasts: each's count, time and, read back, events (bodies
// compare as JSON: a backend may store them reformatted). A record
// without a body (FrontRecords) is compared without.
func (f *fixture) wantRecords(what string, got []storetype.Record, lasts []int64, wanted ...storetype.Record) {
	f.t.Helper()
	if len(got) != len(wanted) {
		f.t.Fatalf("%s: got %d records, want %d", what, len(got), len(wanted))
	}
	for i, g := range got {
		w := wanted[i]
		w.Last = lasts[i]
		want(f.t, what+": Last", g.Last, w.Last)
		want(f.t, what+": N", g.N, w.N)
		wantTime(f.t, what+": Time", g.Time, w.Time)
		if g.Body == nil {
			continue
		}
		var gb, wb any
		ok(f.t, what+": Body", json.Unmarshal(g.Body, &gb))
		ok(f.t, what+": Body", json.Unmarshal(w.Body, &wb))
		if !reflect.DeepEqual(gb, wb) {
			f.t.Fatalf("%s: body %d: got %s, want %s", what, i, g.Body, w.Body)
		}
	}
}

// testFeedCommitRead: records committed in two transactions take
// consecutive positions, each record as many as it holds events, in
// commit order; the feed reads them back, and a Commit with none adds
// nothing; the feed's end holds what committed before any read.
func testFeedCommitRead(f *fixture) {
	want(f.t, "FeedEnd empty", f.feedEnd(), 0)
	a, b, c := record("a", 2, 1), record("b", 1, 2), record("c", 3, 3)
	f.commit(a, b)
	// The head holds what committed, before any read of the feed.
	want(f.t, "FeedEnd before a read", f.feedEnd(), 3)
	f.commit()
	f.commit(c)
	f.wantRecords("Records", f.feed(0, 10), []int64{2, 3, 6}, a, b, c)
	want(f.t, "FeedEnd", f.feedEnd(), 6)
	front := read(f, "FrontRecords", func(tx driver.Executor) ([]storetype.Record, error) { return tx.FrontRecords(f.ctx, 2) })
	f.wantRecords("FrontRecords", front, []int64{2, 3}, a, b)
}

// testFeedPages: a read after a position gets the records holding the
// next limit events (a record that begins in them whole), none past the
// end, and stops when each says so.
func testFeedPages(f *fixture) {
	a, b, c := record("a", 2, 1), record("b", 1, 2), record("c", 3, 3)
	f.commit(a, b, c)
	for _, tc := range []struct {
		after  int64
		limit  int
		lasts  []int64
		wanted []storetype.Record
	}{
		{1, 1, []int64{2}, []storetype.Record{a}},
		{2, 1, []int64{3}, []storetype.Record{b}},
		{2, 2, []int64{3, 6}, []storetype.Record{b, c}},
		{4, 10, []int64{6}, []storetype.Record{c}},
		{6, 10, nil, nil},
	} {
		f.wantRecords(fmt.Sprintf("Records after %d limit %d", tc.after, tc.limit), f.feed(tc.after, tc.limit), tc.lasts, tc.wanted...)
	}
	calls := 0
	stop := func(storetype.Record) bool { calls++; return false }
	ok(f.t, "Records", f.d.Executor().Records(f.ctx, driver.RecordsParams{Limit: 10, Each: stop}))
	want(f.t, "Records stopped", calls, 1)
}

// testEventStored: a committed record is found by its ID, its first
// event's, and by no other.
func testEventStored(f *fixture) {
	f.commit(record("a", 2, 1))
	for _, tc := range []struct {
		id     string
		stored bool
	}{{"a.0", true}, {"a.1", false}, {"b.0", false}} {
		got := read(f, "EventStored", func(tx driver.Executor) (bool, error) { return tx.EventStored(f.ctx, tc.id) })
		want(f.t, "EventStored "+tc.id, got, tc.stored)
	}
}

// testPruneEvents: PruneEvents deletes the records ending at or before
// the position passed and counts their events; the feed then reads from
// its new front, and its end stays.
func testPruneEvents(f *fixture) {
	a, b, c := record("a", 2, 1), record("b", 1, 2), record("c", 3, 3)
	f.commit(a, b, c)
	f.feed(0, 1) // hands out the positions, where that waits for a read
	for _, tc := range []struct {
		through int64
		pruned  int64
	}{{1, 0}, {4, 3}, {4, 0}} {
		got := read(f, "PruneEvents", func(tx driver.Executor) (int64, error) { return tx.PruneEvents(f.ctx, tc.through) })
		want(f.t, fmt.Sprint("PruneEvents through ", tc.through), got, tc.pruned)
	}
	f.wantRecords("Records after prune", f.feed(0, 10), []int64{6}, c)
	front := read(f, "FrontRecords", func(tx driver.Executor) ([]storetype.Record, error) { return tx.FrontRecords(f.ctx, 10) })
	f.wantRecords("FrontRecords after prune", front, []int64{6}, c)
	want(f.t, "FeedEnd after prune", f.feedEnd(), 6)
}

// testCommitTimers: Commit returns the group timers the transaction put,
// each once, in any order.
func testCommitTimers(f *fixture) {
	expire := storetype.Timer{Kind: storetype.TimerExpire, Due: t0.Add(2 * time.Second)}
	release := storetype.Timer{Kind: storetype.TimerRelease, Due: t0.Add(time.Second)}
	tx, err := f.d.Begin(f.ctx, true)
	ok(f.t, "Begin", err)
	defer tx.Rollback()
	for _, tm := range []storetype.Timer{expire, release, expire} {
		ok(f.t, "PutTimer", tx.PutTimer(f.ctx, tm))
	}
	got, err := tx.Commit(f.ctx, nil)
	ok(f.t, "Commit", err)
	slices.SortFunc(got, func(a, b storetype.Timer) int { return a.Due.Compare(b.Due) })
	f.wantTimers("Commit", got, release, expire)
	want(f.t, "Commit none", len(f.commit()), 0)
}
