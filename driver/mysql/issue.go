package mysql

import (
	"context"
	"maps"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
)

// ExistingCoupons returns which of ids name a stored coupon, archived or
// not.
func (e *executor) ExistingCoupons(ctx context.Context, ids []string) (map[string]bool, error) {
	out, err := queryList(ctx, e, "ExistingCoupons", nil, ids, sqlfile.ScanSet)
	if err != nil {
		return nil, err
	}
	archived, err := queryList(ctx, e, "ExistingArchivedCoupons", nil, ids, sqlfile.ScanSet)
	maps.Copy(out, archived)
	return out, err
}

// HeldCounts returns how many coupons of template p.TemplateID each of
// p.Users who holds any holds, archived ones too.
func (e *executor) HeldCounts(ctx context.Context, p driver.HeldCountsParams) (map[string]int64, error) {
	out, err := queryList(ctx, e, "HeldCounts", []any{p.TemplateID}, p.Users, sqlfile.ScanCounts)
	if err != nil {
		return nil, err
	}
	archived, err := queryList(ctx, e, "ArchivedHeldCounts", []any{p.TemplateID}, p.Users, sqlfile.ScanCounts)
	for user, n := range archived {
		out[user] += n
	}
	return out, err
}

// InsertClaimed stores new coupons of one template claimed at one
// instant, in one statement.
func (e *executor) InsertClaimed(ctx context.Context, cs []coupon.Coupon) error {
	if len(cs) == 0 {
		return nil
	}
	args := make([]any, 0, 6*len(cs))
	for _, c := range cs {
		args = append(args, c.ID, c.TemplateID, c.UserID, c.ClaimedAt, c.ExpiresAt, c.UpdatedAt)
	}
	_, err := e.execList(ctx, "InsertClaimed", len(cs), args...)
	return err
}

// queryList runs the named query, whose list (see expand) is list, after
// args, and reads its rows with scan; an empty list reads no rows.
func queryList[T any](ctx context.Context, e *executor, name string, args []any, list []string, scan func(sqlfile.Rows) (map[string]T, error)) (map[string]T, error) {
	if len(list) == 0 {
		return map[string]T{}, nil
	}
	rows, err := e.queryList(ctx, name, len(list), listArgs(list, args...)...)
	return sqlfile.Read(rows, err, scan)
}
