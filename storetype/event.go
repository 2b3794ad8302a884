package storetype

import (
	"encoding/json"
	"time"
)

// Event is one outbox entry. ID is its idempotency key; Seq its position in
// commit order, the feed's cursor.
type Event struct {
	Seq     int64
	ID      string
	Type    string
	Subject string
	Time    time.Time
	Data    json.RawMessage
}

// Timestamp is a time that marshals as the API writes times: RFC 3339 in
// UTC with milliseconds.
type Timestamp time.Time

// TimeFormat is the API's time layout.
const TimeFormat = "2006-01-02T15:04:05.000Z07:00"

// MarshalJSON writes t in TimeFormat.
func (t Timestamp) MarshalJSON() ([]byte, error) {
	return []byte(`"` + time.Time(t).UTC().Format(TimeFormat) + `"`), nil
}

// UnmarshalJSON reads any RFC 3339 time.
func (t *Timestamp) UnmarshalJSON(b []byte) error {
	return (*time.Time)(t).UnmarshalJSON(b)
}
