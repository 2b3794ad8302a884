package store

import (
	"fmt"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/input"
	"github.com/lapsehq/lapse/order"
)

// The input rules of every call that writes, checked by DB before it
// opens a transaction: a call that breaks one is refused with a
// *input.InvalidError naming the field, and changes nothing. The rules
// themselves are package input's; these say which apply to which field.

// Validate checks a template to create, at p.Now.
func (p CreateTemplateParams) Validate() error { return p.Template.Validate(p.Now) }

// Validate checks a template's change.
func (p ChangeTemplateParams) Validate() error {
	if err := input.ID("template_id", p.ID); err != nil {
		return err
	}
	return p.Change.Validate()
}

// Validate checks a template's close.
func (p CloseTemplateParams) Validate() error {
	if err := input.ID("template_id", p.ID); err != nil {
		return err
	}
	return input.Text("reason", p.Reason, input.MaxReason)
}

// Validate checks a claim.
func (p ClaimParams) Validate() error {
	if err := input.ID("template_id", p.TemplateID); err != nil {
		return err
	}
	return input.ID("user_id", p.UserID)
}

// Validate checks a bulk issuance (each user is checked as it is read).
func (p IssueParams) Validate() error { return input.ID("template_id", p.TemplateID) }

// Validate checks a transition: a lock's ttl (at most MaxLockTTL, if
// set), a void's reason, the order an action names.
func (p TransitionParams) Validate() error {
	if err := input.ID("coupon_id", p.CouponID); err != nil {
		return err
	}
	switch p.Action {
	case coupon.Void:
		return input.Text("reason", p.Reason, input.MaxReason)
	case coupon.Lock:
		if err := input.Duration("ttl", p.LockTTL); err != nil {
			return err
		}
		if p.MaxLockTTL > 0 && p.LockTTL > p.MaxLockTTL {
			return input.Invalid("ttl", fmt.Sprintf("at most %s", p.MaxLockTTL))
		}
		fallthrough
	case coupon.Unlock, coupon.Redeem, coupon.Refund:
		return input.ID("order_id", p.OrderID)
	}
	return nil
}

// Validate checks a SKU's new stock and bucket count.
func (p PutSKUParams) Validate() error {
	if err := input.ID("sku", p.SKU); err != nil {
		return err
	}
	if err := order.ValidateStock(p.Stock); err != nil {
		return err
	}
	if p.Buckets == 0 { // the SKU's count
		return nil
	}
	return order.ValidateBuckets(p.Buckets)
}

// Validate checks an order to create.
func (p CreateOrderParams) Validate() error {
	if err := input.ID("user_id", p.UserID); err != nil {
		return err
	}
	if err := order.ValidateItems(p.Items); err != nil {
		return err
	}
	if err := order.ValidateCoupons(p.CouponIDs); err != nil {
		return err
	}
	return order.ValidateDeadline(p.Deadline, p.Now)
}

// Validate checks a payment: its ID, and an amount within an order's
// range (a confirmed payment's amount is the order's).
func (p PayOrderParams) Validate() error {
	if err := input.ID("order_id", p.OrderID); err != nil {
		return err
	}
	if err := input.ID("payment_id", p.PaymentID); err != nil {
		return err
	}
	if !p.Confirmed && (p.Amount < 0 || p.Amount > order.MaxTotal) {
		return input.Invalid("amount", fmt.Sprintf("want 0 to %d", int64(order.MaxTotal)))
	}
	return nil
}

// Validate checks an order's close.
func (p CloseOrderParams) Validate() error {
	if err := input.ID("order_id", p.OrderID); err != nil {
		return err
	}
	if p.Reason != order.ReasonCancelled && p.Reason != order.ReasonTimeout {
		return input.Invalid("reason", "want cancelled or timeout")
	}
	return nil
}

// Validate checks a user's profile.
func (p PutUserParams) Validate() error { return p.User.Validate() }

// validated runs call once p passes its Validate.
func validated[P interface{ Validate() error }, T any](p P, call func() (T, error)) (T, error) {
	if err := p.Validate(); err != nil {
		var zero T
		return zero, err
	}
	return call()
}
