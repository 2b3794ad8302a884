package store

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/storetype"
)

// couponEvents are the events of one type at one instant about many
// coupons, each a coupon's first and only event of its type: a drain's
// coupon.expired, an issuance's coupon.claimed. Their data differ only by
// coupon, so they are stored as one compact record: the coupons' IDs and
// users, and their templates and expiries where these differ from the
// first coupon's. A storm's thousand expiries cost some 45 bytes each,
// not a row or an event's whole JSON each.
type couponEvents struct {
	Type    string
	From    coupon.State // 0: none
	Reason  string
	At      time.Time
	Coupons []coupon.Coupon
	// Actor is the credential the events were caused with, "" for none
	// (see WithActor).
	Actor string
	// Operation is the bulk operation that made the transitions, "" for
	// none.
	Operation string
}

// expiredEvents are the coupon.expired events of coupons a drain expired
// at now.
func expiredEvents(cs []coupon.Coupon, now time.Time) couponEvents {
	return couponEvents{Type: EventCouponExpired, From: coupon.Unused, Reason: ReasonExpiry, At: now, Coupons: cs}
}

// claimedEvents are the coupon.claimed events of coupons claimed at one
// instant: what ClaimedEvent builds for each, with CouponEventID's IDs.
func claimedEvents(cs []coupon.Coupon) couponEvents {
	return couponEvents{Type: EventCouponClaimed, Reason: ReasonClaim, At: cs[0].ClaimedAt, Coupons: cs}
}

// CouponEventID is the ID of a coupon's event at t of a type it has one
// event of: the part of an ID made at t that encodes t, then the 80
// random bits of the coupon's ID. Unique, and sorted by time.
func CouponEventID(couponID string, t time.Time) string {
	return "evt_" + idTime(t) + couponID[len(couponID)-16:]
}

// events returns b's events; without data if data is false (for the
// hooks, which count them).
func (b couponEvents) events(data bool) []storetype.Event {
	out := make([]storetype.Event, len(b.Coupons))
	for i, c := range b.Coupons {
		if data {
			out[i] = CouponEvent(c, b.Type, b.From, b.Reason, "", b.At)
			if b.Operation != "" {
				out[i] = withOperation(out[i], b.Operation)
			}
			out[i].Data = withActor(out[i].Data, b.Actor)
		}
		out[i].ID, out[i].Type, out[i].Subject, out[i].Time = CouponEventID(c.ID, b.At), b.Type, c.ID, b.At
	}
	return out
}

// couponBatch is the JSON of a CouponEvents record: each coupon is [ID,
// user] or, if its template or expiry differs from the batch's, [ID,
// user, template, expiry in ms].
type couponBatch struct {
	Type       string              `json:"type"`
	At         int64               `json:"at"`
	From       string              `json:"from,omitempty"`
	Reason     string              `json:"reason"`
	Actor      string              `json:"actor,omitempty"`
	Operation  string              `json:"operation,omitempty"`
	TemplateID string              `json:"template_id"`
	ExpiresAt  int64               `json:"expires_at"`
	Coupons    [][]json.RawMessage `json:"coupons"`
}

// body encodes b as a record's body.
func (b couponEvents) body() []byte {
	first := b.Coupons[0]
	buf := appendString([]byte(`{"type":`), b.Type)
	buf = fmt.Appendf(buf, `,"at":%d`, b.At.UnixMilli())
	if b.From != 0 {
		buf = appendString(append(buf, `,"from":`...), b.From.String())
	}
	buf = appendString(append(buf, `,"reason":`...), b.Reason)
	if b.Actor != "" {
		buf = appendString(append(buf, `,"actor":`...), b.Actor)
	}
	if b.Operation != "" {
		buf = appendString(append(buf, `,"operation":`...), b.Operation)
	}
	buf = appendString(append(buf, `,"template_id":`...), first.TemplateID)
	buf = fmt.Appendf(buf, `,"expires_at":%d,"coupons":[`, first.ExpiresAt.UnixMilli())
	for i, c := range b.Coupons {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = appendString(append(buf, '['), c.ID)
		buf = appendString(append(buf, ','), c.UserID)
		if c.TemplateID != first.TemplateID || !c.ExpiresAt.Equal(first.ExpiresAt) {
			buf = appendString(append(buf, ','), c.TemplateID)
			buf = fmt.Appendf(buf, ",%d", c.ExpiresAt.UnixMilli())
		}
		buf = append(buf, ']')
	}
	return append(buf, "]}"...)
}

// decodeCouponEvents reads a body that body wrote.
func decodeCouponEvents(body []byte) (couponEvents, error) {
	var j couponBatch
	if err := json.Unmarshal(body, &j); err != nil {
		return couponEvents{}, err
	}
	b := couponEvents{Type: j.Type, Reason: j.Reason, Actor: j.Actor, Operation: j.Operation, At: time.UnixMilli(j.At).UTC(), Coupons: make([]coupon.Coupon, len(j.Coupons))}
	if j.From != "" {
		from, err := coupon.ParseState(j.From)
		if err != nil {
			return b, err
		}
		b.From = from
	}
	for i, f := range j.Coupons {
		c := coupon.Coupon{TemplateID: j.TemplateID, ExpiresAt: time.UnixMilli(j.ExpiresAt).UTC()}
		var expires int64
		fields := []any{&c.ID, &c.UserID, &c.TemplateID, &expires}
		if len(f) != 2 && len(f) != 4 {
			return b, fmt.Errorf("coupon %d has %d fields", i, len(f))
		}
		for k, raw := range f {
			if err := json.Unmarshal(raw, fields[k]); err != nil {
				return b, fmt.Errorf("coupon %d: %w", i, err)
			}
		}
		if len(f) == 4 {
			c.ExpiresAt = time.UnixMilli(expires).UTC()
		}
		b.Coupons[i] = c
	}
	return b, nil
}
