package mysql

import (
	"context"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/mysql/internal/dbsqlc"
)

// ExistingCoupons returns which of ids name a stored coupon, archived or
// not.
func (e *executor) ExistingCoupons(ctx context.Context, ids []string) (map[string]bool, error) {
	out := map[string]bool{}
	if len(ids) == 0 {
		return out, nil
	}
	for _, read := range []func(context.Context, []string) ([]string, error){e.sq().ExistingCoupons, e.sq().ExistingArchivedCoupons} {
		found, err := read(ctx, ids)
		if err != nil {
			return nil, err
		}
		for _, id := range found {
			out[id] = true
		}
	}
	return out, nil
}

// HeldCounts returns how many coupons of template p.TemplateID each of
// p.Users who holds any holds, archived ones too.
func (e *executor) HeldCounts(ctx context.Context, p driver.HeldCountsParams) (map[string]int64, error) {
	out := map[string]int64{}
	if len(p.Users) == 0 {
		return out, nil
	}
	held, err := e.sq().HeldCounts(ctx, dbsqlc.HeldCountsParams{TemplateID: p.TemplateID, Users: p.Users})
	if err != nil {
		return nil, err
	}
	for _, r := range held {
		out[r.UserID] += r.N
	}
	archived, err := e.sq().ArchivedHeldCounts(ctx, dbsqlc.ArchivedHeldCountsParams{TemplateID: p.TemplateID, Users: p.Users})
	if err != nil {
		return nil, err
	}
	for _, r := range archived {
		out[r.UserID] += r.N
	}
	return out, nil
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
