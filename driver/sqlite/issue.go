package sqlite

import (
	"context"
	"encoding/json"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/sqlite/internal/dbsqlc"
)

// ExistingCoupons returns which of ids name a stored coupon.
func (e *executor) ExistingCoupons(ctx context.Context, ids []string) (map[string]bool, error) {
	found, err := e.q().ExistingCoupons(ctx, jsonList(ids))
	if err != nil {
		return nil, err
	}
	out := make(map[string]bool, len(found))
	for _, id := range found {
		out[id] = true
	}
	return out, nil
}

// HeldCounts returns how many coupons of template p.TemplateID each of
// p.Users holds.
func (e *executor) HeldCounts(ctx context.Context, p driver.HeldCountsParams) (map[string]int64, error) {
	rows, err := e.query(ctx, "HeldCounts", jsonList(p.Users), p.TemplateID)
	return sqlfile.Read(rows, err, sqlfile.ScanCounts)
}

// jsonList is list as the JSON array a query reads with json_each.
func jsonList(list []string) string {
	b, _ := json.Marshal(list) // strings always marshal
	return string(b)
}

// InsertClaimed writes new coupons of one template claimed at one instant
// with one statement for them all: no row goes through Go one at a time.
func (e *executor) InsertClaimed(ctx context.Context, cs []coupon.Coupon) error {
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
	return e.q().InsertIssued(ctx, dbsqlc.InsertIssuedParams{
		TemplateID: c.TemplateID, ClaimedAt: ms(c.ClaimedAt), ExpiresAt: ms(c.ExpiresAt), Pairs: string(b),
	})
}
