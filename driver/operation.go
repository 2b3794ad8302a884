package driver

import (
	"time"
)

// OperationRow is an Operation as a backend stores it: its target, args
// and counts as JSON.
type OperationRow struct {
	ID, Kind, Target, Args, Counts, Actor, State, Cursor, Holder string
	CreatedAt, StartedAt, FinishedAt, LeaseUntil                 time.Time
	Done, Total                                                  int64
}

// PendingVoid marks a locked coupon an operation is to void when its
// lock ends.
type PendingVoid struct {
	CouponID, Operation, Reason, Actor string
}

// CouponsAfterParams are the inputs of CouponsAfter.
type CouponsAfterParams struct {
	TemplateID string
	// After is the ID after which the page starts; "" for the first.
	After string
	// Until is the greatest ID the page may hold.
	Until string
	Limit int
}

// ExtendCouponsParams are the inputs of ExtendCoupons: each coupon's
// expires_at becomes To or, if To is zero, moves by By.
type ExtendCouponsParams struct {
	IDs []string
	To  time.Time
	By  time.Duration
	Now time.Time
}

// OperationsParams are the inputs of Operations: up to Limit operations
// with an ID before Before (never ""), newest first, of State if set.
type OperationsParams struct {
	State  string
	Before string
	Limit  int
}
