package store

import (
	"errors"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/order"
)

// kept are the refusals an idempotency key keeps as its request's answer,
// each under the code it is recorded by: refusals for the state of things,
// which a retry would meet again, as at Stripe. An invalid request, a
// failure or a conflict on the key itself is not kept: a retry may get
// past it.
var kept = []struct {
	code string
	err  error
}{
	{"operation-done", ErrOperationDone},
	{"coupon-expired", coupon.ErrExpired},
	{"coupon-invalid-state", coupon.ErrInvalidState},
	{"limit-reached", coupon.ErrLimitReached},
	{"sold-out", coupon.ErrSoldOut},
	{"template-closed", coupon.ErrTemplateClosed},
	{"not-claimable", coupon.ErrNotClaimable},
	{"order-invalid-state", order.ErrInvalidState},
	{"insufficient-stock", order.ErrInsufficientStock},
	{"order-closed", order.ErrClosed},
}

// keptCode is the code err is kept under, "" if it is not kept.
func keptCode(err error) string {
	for _, k := range kept {
		if errors.Is(err, k.err) {
			return k.code
		}
	}
	return ""
}

// keptError is the refusal kept under code, nil if none is.
func keptError(code string) error {
	for _, k := range kept {
		if k.code == code {
			return k.err
		}
	}
	return nil
}
