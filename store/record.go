package store

import (
	"encoding/json"
	"fmt"
	"time"
)

// MaxRecord bounds the events of one outbox record, so that a read of a
// few events never fetches an unbounded record, and that a page's records
// lie in a bounded range of positions.
const MaxRecord = 1000

// Record is how the outbox stores events: the events of one transaction
// (or a MaxRecord of them) in one row, at the consecutive feed positions
// Last-N+1 … Last. A drain's thousand coupon.expired events cost one row,
// not a thousand rows and two thousand index entries; readers see the
// events one by one, each with its own position, ID and data.
//
// Body is a JSON array of the events, each [id, type, subject, time in
// Unix milliseconds, data]; drivers that build a record in SQL write the
// same form.
type Record struct {
	Last int64
	N    int
	// Time is the latest time of its events, what retention goes by.
	Time time.Time
	Body []byte
}

// EncodeRecord returns the body of a record of events.
func EncodeRecord(events []Event) []byte {
	b := []byte{'['}
	for i, e := range events {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		for _, s := range []string{e.ID, e.Type, e.Subject} {
			b = appendString(b, s)
			b = append(b, ',')
		}
		b = fmt.Appendf(b, "%d,", e.Time.UnixMilli())
		b = append(b, e.Data...)
		b = append(b, ']')
	}
	return append(b, ']')
}

// appendString appends s as a JSON string.
func appendString(b []byte, s string) []byte {
	q, _ := json.Marshal(s) // a string always marshals
	return append(b, q...)
}

// Events decodes the record's events, at their positions.
func (r Record) Events() ([]Event, error) {
	var items [][5]json.RawMessage
	if err := json.Unmarshal(r.Body, &items); err != nil {
		return nil, fmt.Errorf("store: outbox record at %d: %w", r.Last, err)
	}
	if len(items) != r.N {
		return nil, fmt.Errorf("store: outbox record at %d holds %d events, not %d", r.Last, len(items), r.N)
	}
	out := make([]Event, len(items))
	for i, it := range items {
		e := &out[i]
		e.Seq = r.Last - int64(r.N-1-i)
		var ms int64
		for j, dst := range []any{&e.ID, &e.Type, &e.Subject, &ms} {
			if err := json.Unmarshal(it[j], dst); err != nil {
				return nil, fmt.Errorf("store: outbox record at %d, event %d: %w", r.Last, i, err)
			}
		}
		e.Time, e.Data = time.UnixMilli(ms).UTC(), it[4]
	}
	return out, nil
}

// Outbox buffers a transaction's events as the records they will be
// stored in: one record for the transaction, cut at MaxRecord events; an
// event Started begins a record of its own, so that its ID is the
// record's, which a driver looks up to write an event only once.
type Outbox struct {
	records [][]Event
}

// Add adds e to the transaction's current record.
func (o *Outbox) Add(e Event) {
	if n := len(o.records); n > 0 && len(o.records[n-1]) < MaxRecord {
		o.records[n-1] = append(o.records[n-1], e)
		return
	}
	o.Start(e)
}

// Start adds e as the first event of a new record.
func (o *Outbox) Start(e Event) { o.records = append(o.records, []Event{e}) }

// Records returns the buffered records in order.
func (o *Outbox) Records() [][]Event { return o.records }

// Latest returns the latest time of events.
func Latest(events []Event) time.Time {
	var t time.Time
	for _, e := range events {
		if e.Time.After(t) {
			t = e.Time
		}
	}
	return t
}

// Events returns the buffered events in order.
func (o *Outbox) Events() []Event {
	var out []Event
	for _, r := range o.records {
		out = append(out, r...)
	}
	return out
}

// page gathers the events a read of the feed asks for out of the records
// that hold them, one record at a time.
type page struct {
	p      EventsParams
	events []Event
	size   int
	err    error
}

// add adds r's events after p.After, up to p.Limit and p.MaxBytes, and
// reports whether the page takes more.
func (pg *page) add(r Record) bool {
	events, err := r.Events()
	if err != nil {
		pg.err = err
		return false
	}
	for _, e := range events {
		if e.Seq <= pg.p.After {
			continue
		}
		if len(pg.events) == pg.p.Limit || pg.p.Full(pg.size) {
			return false
		}
		pg.events, pg.size = append(pg.events, e), pg.size+len(e.Data)
	}
	return true
}
