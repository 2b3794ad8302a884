package coupon

import (
	"errors"
	"fmt"

	"github.com/lapsehq/lapse/input"
)

// Errors a transition or a claim is refused with. The HTTP API maps each to
// its problem slug.
var (
	// ErrExpired: the coupon is at or past its expires_at.
	ErrExpired = errors.New("coupon expired")
	// ErrInvalidState: the action is not allowed from the coupon's state,
	// or names another order than the one holding the coupon.
	ErrInvalidState = errors.New("invalid state")
	// ErrNotDue: a time-triggered action (expire, lock release) was asked
	// before its due time. Triggers are hints; this is not a fault.
	ErrNotDue = errors.New("not due")
	// ErrLimitReached: the user holds the template's per-user limit.
	ErrLimitReached = errors.New("per-user limit reached")
	// ErrSoldOut: the template's total is all issued.
	ErrSoldOut = errors.New("sold out")
	// ErrNotClaimable: the template's claim window is not open.
	ErrNotClaimable = errors.New("not claimable")
	// ErrTemplateClosed: the template is closed; it is an ErrNotClaimable,
	// as closing a template closes its claim window for good.
	ErrTemplateClosed = fmt.Errorf("%w: the template is closed", ErrNotClaimable)
)

// InvalidError names the field whose value is out of range: the input
// package's, so that every rule answers with one type.
type InvalidError = input.InvalidError
