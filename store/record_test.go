package store

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/storetype"
)

// TestOutboxRecords: what a transaction buffers comes back out of its
// records, event for event: plain events (cut at MaxRecord, a once-only one
// beginning its own record) and CouponEvents (cut at MaxRecord, templates
// and expiries that differ from the first kept), with data and IDs as
// CouponEvent and CouponEventID make them.
func TestOutboxRecords(t *testing.T) {
	at := time.Date(2026, 11, 11, 0, 0, 0, 123e6, time.UTC)
	var o outbox
	var want []storetype.Event
	for i := range storetype.MaxRecord + 2 {
		e := storetype.Event{ID: fmt.Sprintf("evt_%d", i), Type: "t", Subject: fmt.Sprintf("s\"ü<%d", i), Time: at.Add(time.Duration(i) * time.Millisecond), Data: json.RawMessage(`{"a":[1, 2]}`)}
		o.add(e)
		want = append(want, e)
	}
	once := storetype.Event{ID: "evt_once", Type: "t", Subject: "s", Time: at, Data: json.RawMessage(`{}`)}
	o.start(once)
	want = append(want, once)
	var cs []coupon.Coupon
	for i := range storetype.MaxRecord + 1 {
		c := coupon.Coupon{ID: NewID("cpn", at), UserID: fmt.Sprintf("u\\%d", i), TemplateID: "tpl_a", ExpiresAt: at.Add(-time.Hour)}
		if i%3 == 1 {
			c.TemplateID, c.ExpiresAt = "tpl_b", at.Add(-time.Minute)
		}
		cs = append(cs, c)
		e := CouponEvent(c, EventCouponExpired, coupon.Unused, ReasonExpiry, "", at)
		e.ID = CouponEventID(c.ID, at)
		want = append(want, e)
	}
	o.addCoupons(expiredEvents(cs, at))

	records := o.Records()
	if ns := []int{records[0].N, records[1].N, records[2].N, records[3].N, records[4].N}; len(records) != 5 || !slices.Equal(ns, []int{storetype.MaxRecord, 2, 1, storetype.MaxRecord, 1}) {
		t.Fatalf("records: got %d, want 5 of MaxRecord, 2, 1, MaxRecord and 1 events", len(records))
	}
	var got []storetype.Event
	last := int64(0)
	for i, r := range records {
		last += int64(r.N)
		r.Last = last
		es, err := recordEvents(r)
		if err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
		if es[0].ID != r.ID {
			t.Fatalf("record %d: ID %s, first event %s", i, r.ID, es[0].ID)
		}
		got = append(got, es...)
	}
	for i, e := range got {
		w := want[i]
		if e.Seq != int64(i+1) || e.ID != w.ID || e.Type != w.Type || e.Subject != w.Subject || !e.Time.Equal(w.Time) || string(e.Data) != string(w.Data) {
			t.Fatalf("event %d: got %+v, want %+v at %d", i, e, w, i+1)
		}
	}
	if hooks := o.Events(); len(hooks) != len(want) || hooks[len(hooks)-1].ID != want[len(want)-1].ID {
		t.Fatalf("events for the hooks: got %d, want %d", len(hooks), len(want))
	}
}
