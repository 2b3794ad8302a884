package storetype

import (
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
