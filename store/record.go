package store

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/lapsehq/lapse/storetype"
)

// EncodeRecord returns the body of a record of events.
func EncodeRecord(events []storetype.Event) []byte {
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

// recordEvents decodes a record's events, at their positions.
func recordEvents(r storetype.Record) ([]storetype.Event, error) {
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
func decodeBody(body []byte) ([]storetype.Event, error) {
	if len(body) > 0 && body[0] == '{' {
		b, err := decodeCouponEvents(body)
		return b.events(true), err
	}
	var items [][5]json.RawMessage
	if err := json.Unmarshal(body, &items); err != nil {
		return nil, err
	}
	out := make([]storetype.Event, len(items))
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
	events []storetype.Event
	size   int
	err    error
}

// add adds r's events after p.After, up to p.Limit and p.MaxBytes, and
// reports whether the page takes more.
func (pg *page) add(r storetype.Record) bool {
	events, err := recordEvents(r)
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
