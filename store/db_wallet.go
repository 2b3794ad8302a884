package store

import (
	"context"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/storetype"
)

// Claim issues one coupon of p.TemplateID to p.UserID.
func (db *DB) Claim(ctx context.Context, p ClaimParams) (coupon.Coupon, error) {
	return mutateValid(ctx, db, p, p.Idem, claimIn)
}

// Issue issues coupons of p.TemplateID to p.Users, a batch of users per
// background transaction, resumably under an idempotency key (see
// IssueParams).
func (db *DB) Issue(ctx context.Context, p IssueParams) (Issued, error) {
	return validated(p, func() (Issued, error) {
		return issue(p, db.d.Busy, func(fn func(*txn) (issueStep, error)) (issueStep, error) {
			return background(ctx, db, fn)
		})
	})
}

// UserCoupons reads a page of a user's wallet (see UserCouponsParams),
// as the lazy check reads it at p.Now.
func (db *DB) UserCoupons(ctx context.Context, p storetype.UserCouponsParams) ([]coupon.Coupon, error) {
	return validated(p, func() ([]coupon.Coupon, error) {
		cs, err := read(ctx, db, func(x driver.Executor) ([]coupon.Coupon, error) { return x.UserCoupons(ctx, p) })
		for i := range cs {
			cs[i] = cs[i].View(p.Now)
		}
		return cs, err
	})
}

// Transition decides p.Action with the coupon table on the held coupon
// and stores the result with a compare-and-set on its state and version.
func (db *DB) Transition(ctx context.Context, p TransitionParams) (coupon.Coupon, error) {
	return mutateValid(ctx, db, p, p.Idem, transitionIn)
}
