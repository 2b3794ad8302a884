package outbox_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/lapsehq/lapse/outbox"
	"github.com/lapsehq/lapse/storetype"
)

func TestEncode(t *testing.T) {
	e := storetype.Event{Seq: 7, ID: "evt_1", Type: "coupon.expired", Subject: "cpn_1",
		Time: time.Date(2026, 11, 11, 0, 0, 1, 234_000_000, time.UTC), Data: json.RawMessage(`{"from":"unused"}`)}
	got, err := outbox.Encode(e)
	if err != nil {
		t.Fatalf("Encode: %v", err)
	}
	want := `{"specversion":"1.0","id":"evt_1","source":"/lapse","type":"coupon.expired","subject":"cpn_1",` +
		`"time":"2026-11-11T00:00:01.234Z","datacontenttype":"application/json","data":{"from":"unused"}}`
	if string(got) != want {
		t.Fatalf("Encode:\n got %s\nwant %s", got, want)
	}
	batch, err := outbox.EncodeBatch([]storetype.Event{e, e})
	if err != nil {
		t.Fatalf("EncodeBatch: %v", err)
	}
	if string(batch) != "["+want+","+want+"]" {
		t.Fatalf("EncodeBatch: got %s, want an array of two", batch)
	}
	e.Data = nil
	if got, err := outbox.Encode(e); err != nil || !json.Valid(got) {
		t.Fatalf("Encode without data: got %s, %v; want valid JSON", got, err)
	}
	e.Data = json.RawMessage(`{"broken"`)
	if _, err := outbox.Encode(e); err == nil {
		t.Fatalf("Encode of invalid data: got nil error, want one")
	}
}
