package postgres

import (
	"context"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
)

// ExistingCoupons returns which of ids name a stored coupon.
func (e *executor) ExistingCoupons(ctx context.Context, ids []string) (map[string]bool, error) {
	rows, err := e.query(ctx, "ExistingCoupons", ids)
	return sqlfile.Read(rows, err, sqlfile.ScanSet)
}

// HeldCounts returns how many coupons of p.TemplateID each of p.Users
// holds.
func (e *executor) HeldCounts(ctx context.Context, p driver.HeldCountsParams) (map[string]int64, error) {
	rows, err := e.query(ctx, "HeldCounts", p.Users, p.TemplateID)
	return sqlfile.Read(rows, err, sqlfile.ScanCounts)
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
