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
// Body is either a JSON array of the events, each [id, type, subject,
// time in Unix milliseconds, data], or, for CouponEvents, the object
// their body method writes.
type Record struct {
	Last int64
	N    int
	// ID is the first event's ID, which a driver stores to look a
	// once-only event up (Tx.EventStored); reads leave it empty.
	ID string
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
	out, err := decodeBody(r.Body)
	if err != nil {
		return nil, fmt.Errorf("store: outbox record at %d: %w", r.Last, err)
	}
	if len(out) != r.N {
		return nil, fmt.Errorf("store: outbox record at %d holds %d events, not %d", r.Last, len(out), r.N)
	}
	for i := range out {
		out[i].Seq = r.Last - int64(r.N-1-i)
	}
	return out, nil
}

// decodeBody reads the events of a record's body.
func decodeBody(body []byte) ([]Event, error) {
	if len(body) > 0 && body[0] == '{' {
		b, err := decodeCouponEvents(body)
		return b.events(true), err
	}
	var items [][5]json.RawMessage
	if err := json.Unmarshal(body, &items); err != nil {
		return nil, err
	}
	out := make([]Event, len(items))
	for i, it := range items {
		e := &out[i]
		var ms int64
		for j, dst := range []any{&e.ID, &e.Type, &e.Subject, &ms} {
			if err := json.Unmarshal(it[j], dst); err != nil {
				return nil, fmt.Errorf("event %d: %w", i, err)
			}
		}
		e.Time, e.Data = time.UnixMilli(ms).UTC(), it[4]
	}
	return out, nil
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
