package postgres

import (
	"context"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/postgres/internal/dbsqlc"
)

// ExistingCoupons returns which of ids name a stored coupon.
func (e *executor) ExistingCoupons(ctx context.Context, ids []string) (map[string]bool, error) {
	found, err := e.sqlc().ExistingCoupons(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make(map[string]bool, len(found))
	for _, id := range found {
		out[id] = true
	}
	return out, nil
}

// HeldCounts returns how many coupons of p.TemplateID each of p.Users
// holds.
func (e *executor) HeldCounts(ctx context.Context, p driver.HeldCountsParams) (map[string]int64, error) {
	rows, err := e.sqlc().HeldCounts(ctx, dbsqlc.HeldCountsParams{TemplateID: p.TemplateID, Users: p.Users})
	if err != nil {
		return nil, err
	}
	out := make(map[string]int64, len(rows))
	for _, r := range rows {
		out[r.UserID] = r.N
	}
	return out, nil
}

// InsertClaimed stores new coupons of one template claimed at one
// instant, in one statement.
func (e *executor) InsertClaimed(ctx context.Context, cs []coupon.Coupon) error {
	if len(cs) == 0 {
		return nil
	}
	ids, users := make([]string, len(cs)), make([]string, len(cs))
	for i, c := range cs {
		ids[i], users[i] = c.ID, c.UserID
	}
	c := cs[0]
	_, err := e.exec(ctx, "InsertClaimed", ids, users, c.TemplateID, c.ClaimedAt, c.ExpiresAt)
	return err
}
