package sqlite

import (
	"database/sql"
	"encoding/json"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
)

// IssuedCount reads how many coupons of a template are issued.
func (t *tx) IssuedCount(templateID string) (int64, error) {
	return sqlfile.ScanInt64(t.queryRow("TemplateIssued", templateID))
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
	return t.query(name, append([]any{jsonList(list)}, args...)...)
}

// jsonList is list as the JSON array a query reads with json_each.
func jsonList(list []string) string {
	b, _ := json.Marshal(list) // strings always marshal
	return string(b)
}

// InsertClaimed writes new coupons of one template claimed at one instant
// with one statement for them all: no row goes through Go one at a time.
func (t *tx) InsertClaimed(cs []coupon.Coupon) error {
	if len(cs) == 0 {
		return nil
	}
	list := make([][2]string, len(cs))
	for i, c := range cs {
		list[i] = [2]string{c.ID, c.UserID}
	}
	b, err := json.Marshal(list)
	if err != nil {
		return err
	}
	c := cs[0]
	_, err = t.exec("InsertIssued", string(b), c.TemplateID, ms(c.ClaimedAt), ms(c.ExpiresAt))
	return err
}
