package driver

import (
	"time"

	"github.com/lapsehq/lapse/coupon"
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

// CouponsAfterParams are the inputs of Tx.CouponsAfter.
type CouponsAfterParams struct {
	TemplateID string
	// After is the ID after which the page starts; "" for the first.
	After string
	// Until is the greatest ID the page may hold.
	Until string
	Limit int
}

// ExtendCouponsParams are the inputs of Tx.ExtendCoupons: each coupon's
// expires_at becomes To or, if To is zero, moves by By.
type ExtendCouponsParams struct {
	IDs []string
	To  time.Time
	By  time.Duration
	Now time.Time
}

// OperationTx is what operations need of a write transaction.
type OperationTx interface {
	// InsertOperation stores a new operation.
	InsertOperation(r OperationRow) error
	// Operation reads one operation, holding it until the transaction
	// ends.
	Operation(id string) (OperationRow, error)
	// SetOperation stores r over the operation of its ID.
	SetOperation(r OperationRow) error
	// OperationsDue lists up to limit running operations that holder may
	// take at now: held by none, by holder, or past their lease; by ID.
	OperationsDue(holder string, now time.Time, limit int) ([]string, error)
	// CouponsAfter reads up to p.Limit coupons of template p.TemplateID
	// with an ID after p.After and at most p.Until, by ID in byte order,
	// holding them until the transaction ends.
	CouponsAfter(p CouponsAfterParams) ([]coupon.Coupon, error)
	// UsersCoupons reads the coupons the listed users hold with an ID at
	// most until, in no order, holding them until the transaction ends.
	UsersCoupons(userIDs []string, until string) ([]coupon.Coupon, error)
	// VoidCoupons voids, in one statement, those of the listed coupons
	// that are unused with expires_at after now (status, order_id,
	// locked_until, updated_at and version as SetCoupon sets them), and
	// returns how many it changed.
	VoidCoupons(ids []string, now time.Time) (int64, error)
	// ExtendCoupons sets, in one statement, the expires_at of those of
	// p.IDs that are unused or locked, and returns how many it changed.
	ExtendCoupons(p ExtendCouponsParams) (int64, error)
	// PutPendingVoid marks a coupon to be voided when its lock ends,
	// unless it is marked.
	PutPendingVoid(p PendingVoid) error
	// TakePendingVoid removes and returns a coupon's mark, if it has one.
	TakePendingVoid(couponID string) (PendingVoid, bool, error)
}
