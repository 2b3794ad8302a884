package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
)

// ExistingCoupons returns which of ids name a stored coupon.
func (e *executor) ExistingCoupons(ctx context.Context, ids []string) (map[string]bool, error) {
	rows, err := e.queryList(ctx, "ExistingCoupons", ids)
	return sqlfile.Read(rows, err, sqlfile.ScanSet)
}

// HeldCounts returns how many coupons of template p.TemplateID each of
// p.Users holds.
func (e *executor) HeldCounts(ctx context.Context, p driver.HeldCountsParams) (map[string]int64, error) {
	rows, err := e.queryList(ctx, "HeldCounts", p.Users, p.TemplateID)
	return sqlfile.Read(rows, err, sqlfile.ScanCounts)
}

// queryList runs the named query with list as a JSON array for its first
// parameter.
func (e *executor) queryList(ctx context.Context, name string, list []string, args ...any) (*sql.Rows, error) {
	return e.query(ctx, name, append([]any{jsonList(list)}, args...)...)
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
	_, err = e.exec(ctx, "InsertIssued", string(b), c.TemplateID, ms(c.ClaimedAt), ms(c.ExpiresAt))
	return err
}
