package sqlite

import (
	"database/sql"
	"encoding/json"
	"slices"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/store/sqlfile"
)

// IssuedCount reads how many coupons of a template are issued.
func (t *tx) IssuedCount(templateID string) (int64, error) {
	var n int64
	err := t.queryRow("TemplateIssued", templateID).Scan(&n)
	return n, err
}

// ExistingCoupons returns which of ids name a stored coupon.
func (t *tx) ExistingCoupons(ids []string) (map[string]bool, error) {
	rows, err := t.queryList("ExistingCoupons", ids)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return sqlfile.ScanSet(rows)
}

// HeldCounts returns how many coupons of templateID each of users holds.
func (t *tx) HeldCounts(templateID string, users []string) (map[string]int64, error) {
	rows, err := t.queryList("HeldCounts", users, templateID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return sqlfile.ScanCounts(rows)
}

// queryList runs the named query with list as a JSON array for its first
// parameter.
func (t *tx) queryList(name string, list []string, args ...any) (*sql.Rows, error) {
	b, err := json.Marshal(list)
	if err != nil {
		return nil, err
	}
	return t.query(name, append([]any{string(b)}, args...)...)
}

// InsertClaimed writes new coupons of one template claimed at one instant
// and their coupon.claimed events, a record's worth at a time.
func (t *tx) InsertClaimed(cs []coupon.Coupon) error {
	for chunk := range slices.Chunk(cs, store.MaxRecord) {
		if err := t.insertClaimed(chunk); err != nil {
			return err
		}
	}
	return nil
}

// insertClaimed writes coupons and their coupon.claimed events, each with
// one statement for them all: no row goes through Go one at a time.
func (t *tx) insertClaimed(cs []coupon.Coupon) error {
	ids, list := make([]string, len(cs)), make([]string, len(cs)) // list: coupon ID then user ID
	for i, c := range cs {
		ids[i], list[i] = c.ID, c.ID+c.UserID
	}
	b, err := json.Marshal(list)
	if err != nil {
		return err
	}
	c := cs[0]
	if _, err := t.exec("InsertIssued", string(b), c.TemplateID, ms(c.ClaimedAt), ms(c.ExpiresAt)); err != nil {
		return err
	}
	return t.sqlRecord("InsertIssuedRecord", store.EventCouponClaimed, c.ClaimedAt, ids,
		string(b), c.TemplateID, ms(c.ClaimedAt), ms(c.ExpiresAt), store.IDTime(c.ClaimedAt), apiTime(c.ExpiresAt))
}

// sqlRecord writes, with the named statement, the record of the events
// of type typ at now that it builds for coupons (at most
// store.MaxRecord), and remembers them for the hooks. The statement takes
// the record's last position, its length and its first event's ID, then
// args. An event's ID is, as the statements make it, evt_, the time part
// of an ID made at now and the random part of the coupon's ID (a coupon
// gets one event of a type at a given time).
func (t *tx) sqlRecord(name, typ string, now time.Time, coupons []string, args ...any) error {
	last, err := t.takeSeq(len(coupons))
	if err != nil {
		return err
	}
	prefix := "evt_" + store.IDTime(now)
	first := prefix + coupons[0][len(coupons[0])-16:]
	if _, err := t.exec(name, append([]any{last, len(coupons), first}, args...)...); err != nil {
		return err
	}
	for _, id := range coupons {
		t.written = append(t.written, store.Event{ID: prefix + id[len(id)-16:], Type: typ, Subject: id, Time: now})
	}
	return nil
}
