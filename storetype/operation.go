package storetype

import (
	"time"
)

// OperationKind is what a bulk operation does to each coupon it targets.
type OperationKind string

// The kinds of bulk operation.
const (
	// OperationVoid voids unused coupons; a locked one is voided when its
	// lock ends.
	OperationVoid OperationKind = "void"
	// OperationExtend moves the expires_at of unused and locked coupons.
	OperationExtend OperationKind = "extend"
)

// The states of an operation.
const (
	// OperationRunning: batches remain.
	OperationRunning = "running"
	// OperationDone: every targeted coupon has been worked.
	OperationDone = "done"
	// OperationCancelled: an operator stopped it; the coupons it worked
	// before stay as it left them, and it works no more.
	OperationCancelled = "cancelled"
)

// OperationTarget names the coupons an operation works: a template's, a
// list of coupon IDs, or every coupon a list of users holds, exactly one
// of the three.
type OperationTarget struct {
	TemplateID string   `json:"template_id,omitempty"`
	CouponIDs  []string `json:"coupon_ids,omitempty"`
	UserIDs    []string `json:"user_ids,omitempty"`
}

// OperationArgs are an operation's parameters: a void's reason; an
// extension's new expires_at or the duration it adds, exactly one.
type OperationArgs struct {
	Reason    string        `json:"reason,omitempty"`
	ExpiresAt time.Time     `json:"expires_at,omitzero"`
	By        time.Duration `json:"by,omitempty"`
}

// OperationCounts are what an operation has done so far.
type OperationCounts struct {
	Voided   int64 `json:"voided"`
	Extended int64 `json:"extended"`
	// Skipped counts the coupons left as they were, by state.
	Skipped map[string]int64 `json:"skipped"`
	// PendingLocked counts the locked coupons marked to be voided when
	// their lock ends.
	PendingLocked int64 `json:"pending_locked"`
	// Missed counts the coupons an extension could not extend because
	// they expired after it was accepted, before it reached them: unused
	// when it was accepted, expired when it came to them. An expiry is
	// not undone: users were refused at the instant and its event went
	// out, so an extension says what it missed instead.
	Missed int64 `json:"missed"`
}
