package mysql

import (
	"maps"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
)

// IssuedCount reads how many coupons of a template are issued.
func (t *tx) IssuedCount(templateID string) (int64, error) {
	return sqlfile.ScanInt64(t.queryRow("TemplateIssued", templateID))
}

// ExistingCoupons returns which of ids name a stored coupon, archived or
// not.
func (t *tx) ExistingCoupons(ids []string) (map[string]bool, error) {
	out, err := queryList(t, "ExistingCoupons", nil, ids, sqlfile.ScanSet)
	if err != nil {
		return nil, err
	}
	archived, err := queryList(t, "ExistingArchivedCoupons", nil, ids, sqlfile.ScanSet)
	maps.Copy(out, archived)
	return out, err
}

// HeldCounts returns how many coupons of templateID each of users who
// holds any holds, archived ones too.
func (t *tx) HeldCounts(templateID string, users []string) (map[string]int64, error) {
	out, err := queryList(t, "HeldCounts", []any{templateID}, users, sqlfile.ScanCounts)
	if err != nil {
		return nil, err
	}
	archived, err := queryList(t, "ArchivedHeldCounts", []any{templateID}, users, sqlfile.ScanCounts)
	for user, n := range archived {
		out[user] += n
	}
	return out, err
}

// InsertClaimed stores new coupons of one template claimed at one
// instant, in one statement.
func (t *tx) InsertClaimed(cs []coupon.Coupon) error {
	if len(cs) == 0 {
		return nil
	}
	args := make([]any, 0, 6*len(cs))
	for _, c := range cs {
		args = append(args, c.ID, c.TemplateID, c.UserID, c.ClaimedAt, c.ExpiresAt, c.UpdatedAt)
	}
	if _, err := t.execList("InsertClaimed", len(cs), args...); err != nil {
		return err
	}
	return nil
}

// queryList runs the named query, whose list (see expand) is list, after
// args, and reads its rows with scan; an empty list reads no rows.
func queryList[T any](t *tx, name string, args []any, list []string, scan func(sqlfile.Rows) (map[string]T, error)) (map[string]T, error) {
	if len(list) == 0 {
		return map[string]T{}, nil
	}
	rows, err := t.queryList(name, len(list), listArgs(list, args...)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return scan(rows)
}
