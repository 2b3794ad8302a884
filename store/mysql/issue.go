package mysql

import (
	"context"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/store"
)

// Issue issues coupons of p.TemplateID to p.UserIDs, a batch of users per
// transaction, resumably under an idempotency key (see store.IssueParams).
// Batches of one template queue on its row, as its claims do.
func (s *Store) Issue(ctx context.Context, p store.IssueParams) (store.Issued, error) {
	return store.Issue(ctx, p, nil, func(fn func(store.Tx) (store.IssueStep, error)) (store.IssueStep, error) {
		return inTx(store.WithoutIdempotency(ctx), s, func(t *tx) (store.IssueStep, error) { return fn(t) })
	})
}

// IssuedCount reads how many coupons of a template are issued.
func (t *tx) IssuedCount(templateID string) (int64, error) {
	var n int64
	err := t.queryRow("TemplateIssued", templateID).Scan(&n)
	return n, err
}

// ExistingCoupons returns which of ids name a stored coupon.
func (t *tx) ExistingCoupons(ids []string) (map[string]bool, error) {
	out := map[string]bool{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := t.sql.QueryContext(t.ctx, expand(queries.Get("ExistingCoupons"), len(ids)), anys(ids)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out[id] = true
	}
	return out, rows.Err()
}

// HeldCounts returns how many coupons of templateID each of users who
// holds any holds.
func (t *tx) HeldCounts(templateID string, users []string) (map[string]int64, error) {
	out := map[string]int64{}
	if len(users) == 0 {
		return out, nil
	}
	args := append([]any{templateID}, anys(users)...)
	rows, err := t.sql.QueryContext(t.ctx, expand(queries.Get("HeldCounts"), len(users)), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var (
			u string
			n int64
		)
		if err := rows.Scan(&u, &n); err != nil {
			return nil, err
		}
		out[u] = n
	}
	return out, rows.Err()
}

// InsertClaimed stores new coupons of one template claimed at one
// instant, in one statement, and adds their coupon.claimed events.
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
	for _, c := range cs {
		if err := t.Event(store.ClaimedEvent(c)); err != nil {
			return err
		}
	}
	return nil
}

// anys returns ss as query arguments.
func anys(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}
