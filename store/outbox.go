package store

import (
	"slices"
	"time"

	"github.com/lapsehq/lapse/storetype"
)

// outbox buffers a transaction's events as the records they will be
// stored in: one record for the transaction's events, cut at MaxRecord
// events, and one for each MaxRecord of each CouponEvents. A once-only
// event begins a record of its own, so that its ID is the record's, which
// a driver looks up (Executor.EventStored).
type outbox struct {
	records []pending
}

// pending is one record to be: events, or coupons' events.
type pending struct {
	events  []storetype.Event
	coupons *couponEvents
}

// add adds e to the transaction's current record.
func (o *outbox) add(e storetype.Event) {
	if n := len(o.records); n > 0 && o.records[n-1].coupons == nil && len(o.records[n-1].events) < storetype.MaxRecord {
		o.records[n-1].events = append(o.records[n-1].events, e)
	} else {
		o.start(e)
	}
}

// start adds e as the first event of a new record.
func (o *outbox) start(e storetype.Event) {
	o.records = append(o.records, pending{events: []storetype.Event{e}})
}

// addCoupons adds b's events, as records of their own.
func (o *outbox) addCoupons(b couponEvents) {
	for cs := range slices.Chunk(b.Coupons, storetype.MaxRecord) {
		part := b
		part.Coupons = cs
		o.records = append(o.records, pending{coupons: &part})
	}
}

// Records returns the buffered records in order, without positions.
func (o *outbox) Records() []storetype.Record {
	out := make([]storetype.Record, len(o.records))
	for i, p := range o.records {
		if p.coupons != nil {
			b := p.coupons
			out[i] = storetype.Record{N: len(b.Coupons), ID: CouponEventID(b.Coupons[0].ID, b.At), Time: b.At, Body: b.body()}
			continue
		}
		out[i] = storetype.Record{N: len(p.events), ID: p.events[0].ID, Time: latest(p.events), Body: EncodeRecord(p.events)}
	}
	return out
}

// Events returns the buffered events in order, those of CouponEvents
// without data (see Hooks).
func (o *outbox) Events() []storetype.Event {
	var out []storetype.Event
	for _, p := range o.records {
		if p.coupons != nil {
			out = append(out, p.coupons.events(false)...)
		} else {
			out = append(out, p.events...)
		}
	}
	return out
}

// latest returns the latest time of events.
func latest(events []storetype.Event) time.Time {
	var t time.Time
	for _, e := range events {
		if e.Time.After(t) {
			t = e.Time
		}
	}
	return t
}
