package storetype

import (
	"fmt"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/input"
)

// UserCouponsParams are the inputs of UserCoupons: one page of a user's
// wallet, by coupon ID.
type UserCouponsParams struct {
	UserID string
	// Status, if set, keeps the coupons the lazy check reads at Now in
	// that state: an unused coupon at or past its expires_at is expired.
	Status coupon.State
	Now    time.Time
	// After is the ID of the last coupon a caller has seen; "" for none.
	After string
	// Limit is the most coupons the page holds, 1 to MaxWalletPage.
	Limit int
	// Archived lists the user's archived coupons too, among the others
	// by ID: a coupon archived while a caller pages is seen once.
	Archived bool
}

// StatusFilter is p.Status as the drivers' queries compare it with a
// coupon's state: its name, or "" to keep every coupon.
func (p UserCouponsParams) StatusFilter() string {
	if p.Status == 0 {
		return ""
	}
	return p.Status.String()
}

// MaxWalletPage is the most coupons one page of a wallet holds.
const MaxWalletPage = 1000

// Validate checks a page of a wallet: its cursor if set, and its size.
// (Its user is not checked: a read finds nothing for an ID no write
// accepts, and still finds a user stored before the rules, if any.)
func (p UserCouponsParams) Validate() error {
	if p.After != "" {
		if err := input.ID("after", p.After); err != nil {
			return err
		}
	}
	if p.Limit < 1 || p.Limit > MaxWalletPage {
		return input.Invalid("limit", fmt.Sprintf("must be an integer from 1 to %d", MaxWalletPage))
	}
	return nil
}
