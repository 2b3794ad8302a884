package store

import (
	"encoding/json"
	"time"

	"github.com/lapsehq/lapse/coupon"
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

// Operation is one bulk void or extension: what, of what, by whom, when,
// and how far it has come. It works the coupons that existed when it was
// accepted (CreatedAt): those claimed or issued at or before it, never
// one claimed after (see LastCoupon). A void does not close a template:
// claims go on, and closing the template first voids every coupon it
// will ever have.
type Operation struct {
	ID         string
	Kind       OperationKind
	Target     OperationTarget
	Args       OperationArgs
	Actor      string
	State      string
	CreatedAt  time.Time
	StartedAt  time.Time
	FinishedAt time.Time
	Counts     OperationCounts
	// Done of Total coupons worked (users, for a list of users). For a
	// template, Total is the coupons it had issued when the operation was
	// accepted; it is never below Done (a claim in flight at that
	// instant is worked and counted), and once the operation is done it
	// is Done: the coupons it worked.
	Done, Total int64
	// Cursor is the ID of the last coupon worked: a batch resumes after it.
	Cursor string
	// Holder works the operation until LeaseUntil; another instance may
	// take it over after.
	Holder     string
	LeaseUntil time.Time
}

// LastCoupon is the greatest ID of a coupon op works: coupon IDs sort by
// the time they were made (NewID), so those at most it were claimed or
// issued at or before op was accepted.
func (op Operation) LastCoupon() string { return LastID("cpn", op.CreatedAt) }

// OperationRow is an Operation as a backend stores it: its target, args
// and counts as JSON.
type OperationRow struct {
	ID, Kind, Target, Args, Counts, Actor, State, Cursor, Holder string
	CreatedAt, StartedAt, FinishedAt, LeaseUntil                 time.Time
	Done, Total                                                  int64
}

// row returns op as a backend stores it.
func (op Operation) row() OperationRow {
	return OperationRow{ID: op.ID, Kind: string(op.Kind), Target: string(mustJSON(op.Target)), Args: string(mustJSON(op.Args)),
		Counts: string(mustJSON(op.Counts)), Actor: op.Actor, State: op.State, Cursor: op.Cursor, Holder: op.Holder,
		CreatedAt: op.CreatedAt, StartedAt: op.StartedAt, FinishedAt: op.FinishedAt, LeaseUntil: op.LeaseUntil, Done: op.Done, Total: op.Total}
}

// operation reads r as an Operation.
func (r OperationRow) operation() (Operation, error) {
	op := Operation{ID: r.ID, Kind: OperationKind(r.Kind), Actor: r.Actor, State: r.State, Cursor: r.Cursor, Holder: r.Holder,
		CreatedAt: r.CreatedAt, StartedAt: r.StartedAt, FinishedAt: r.FinishedAt, LeaseUntil: r.LeaseUntil, Done: r.Done, Total: r.Total}
	for _, f := range []struct {
		s string
		v any
	}{{r.Target, &op.Target}, {r.Args, &op.Args}, {r.Counts, &op.Counts}} {
		if err := json.Unmarshal([]byte(f.s), f.v); err != nil {
			return op, err
		}
	}
	return op, nil
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
