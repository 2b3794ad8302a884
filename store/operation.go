package store

import (
	"encoding/json"
	"time"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/storetype"
)

// Operation is one bulk void or extension: what, of what, by whom, when,
// and how far it has come. It works the coupons that existed when it was
// accepted (CreatedAt): those claimed or issued at or before it, never
// one claimed after (see LastCoupon). A void does not close a template:
// claims go on, and closing the template first voids every coupon it
// will ever have.
type Operation struct {
	ID         string
	Kind       storetype.OperationKind
	Target     storetype.OperationTarget
	Args       storetype.OperationArgs
	Actor      string
	State      string
	CreatedAt  time.Time
	StartedAt  time.Time
	FinishedAt time.Time
	Counts     storetype.OperationCounts
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
func (op Operation) LastCoupon() string { return lastID("cpn", op.CreatedAt) }

// row returns op as a backend stores it.
func (op Operation) row() driver.OperationRow {
	return driver.OperationRow{ID: op.ID, Kind: string(op.Kind), Target: string(mustJSON(op.Target)), Args: string(mustJSON(op.Args)),
		Counts: string(mustJSON(op.Counts)), Actor: op.Actor, State: op.State, Cursor: op.Cursor, Holder: op.Holder,
		CreatedAt: op.CreatedAt, StartedAt: op.StartedAt, FinishedAt: op.FinishedAt, LeaseUntil: op.LeaseUntil, Done: op.Done, Total: op.Total}
}

// operation reads r as an Operation.
func operationOf(r driver.OperationRow) (Operation, error) {
	op := Operation{ID: r.ID, Kind: storetype.OperationKind(r.Kind), Actor: r.Actor, State: r.State, Cursor: r.Cursor, Holder: r.Holder,
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
