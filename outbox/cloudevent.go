package outbox

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/lapsehq/lapse/storetype"
)

// Content types of CloudEvents in JSON: one event (structured mode), or
// several in one array (batched mode).
const (
	ContentType      = "application/cloudevents+json"
	BatchContentType = "application/cloudevents-batch+json"
)

// Source is the CloudEvents source attribute of every event lapse sends.
const Source = "/lapse"

// CloudEvent is an event in the CloudEvents 1.0 JSON format, as every
// sink sends it; a Go receiver may decode into it.
type CloudEvent struct {
	SpecVersion     string          `json:"specversion"`
	ID              string          `json:"id"`
	Source          string          `json:"source"`
	Type            string          `json:"type"`
	Subject         string          `json:"subject"`
	Time            string          `json:"time"`
	DataContentType string          `json:"datacontenttype"`
	Data            json.RawMessage `json:"data"`
}

// Encode returns e as a CloudEvents 1.0 JSON object: its id, type (as the
// feed names it, e.g. coupon.expired), subject and time as the attributes
// of the same names, its data as data.
func Encode(e storetype.Event) ([]byte, error) {
	data := e.Data
	if len(data) == 0 {
		data = json.RawMessage("{}")
	}
	b, err := json.Marshal(CloudEvent{
		SpecVersion:     "1.0",
		ID:              e.ID,
		Source:          Source,
		Type:            e.Type,
		Subject:         e.Subject,
		Time:            e.Time.UTC().Format(storetype.TimeFormat),
		DataContentType: "application/json",
		Data:            data,
	})
	if err != nil {
		return nil, fmt.Errorf("encode event %s: %w", e.ID, err)
	}
	return b, nil
}

// EncodeBatch returns evs as a JSON array of CloudEvents.
func EncodeBatch(evs []storetype.Event) ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('[')
	for i, e := range evs {
		b, err := Encode(e)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.Write(b)
	}
	buf.WriteByte(']')
	return buf.Bytes(), nil
}
