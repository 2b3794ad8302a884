package postgres

import (
	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
)

// IssuedCount reads how many coupons of a template are issued.
func (t *tx) IssuedCount(templateID string) (int64, error) {
	return sqlfile.ScanInt64(t.queryRow("TemplateIssued", templateID))
}

// ExistingCoupons returns which of ids name a stored coupon.
func (t *tx) ExistingCoupons(ids []string) (map[string]bool, error) {
	rows, err := t.query("ExistingCoupons", ids)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return sqlfile.ScanSet(rows)
}

// HeldCounts returns how many coupons of templateID each of users holds.
func (t *tx) HeldCounts(templateID string, users []string) (map[string]int64, error) {
	rows, err := t.query("HeldCounts", users, templateID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return sqlfile.ScanCounts(rows)
}

// InsertClaimed stores new coupons of one template claimed at one
// instant, in one statement.
func (t *tx) InsertClaimed(cs []coupon.Coupon) error {
	if len(cs) == 0 {
		return nil
	}
	ids, users := make([]string, len(cs)), make([]string, len(cs))
	for i, c := range cs {
		ids[i], users[i] = c.ID, c.UserID
	}
	c := cs[0]
	if _, err := t.exec("InsertClaimed", ids, users, c.TemplateID, c.ClaimedAt, c.ExpiresAt); err != nil {
		return err
	}
	return nil
}
