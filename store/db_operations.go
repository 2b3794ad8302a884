package store

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/input"
	"github.com/lapsehq/lapse/storetype"
)

// StartOperationParams are the inputs of StartOperation and
// PreviewOperation.
type StartOperationParams struct {
	Kind   storetype.OperationKind
	Target storetype.OperationTarget
	Args   storetype.OperationArgs
	Now    time.Time
	// Idem, if set, is the idempotency key the call runs under.
	Idem *Idempotency
}

// ClaimOperationParams are the inputs of ClaimOperation.
type ClaimOperationParams struct {
	Holder string
	TTL    time.Duration
	Now    time.Time
}

// WorkOperationParams are the inputs of WorkOperation.
type WorkOperationParams struct {
	ID     string
	Holder string
	// TTL renews the lease from Now.
	TTL   time.Duration
	Now   time.Time
	Limit int
}

// MaxOperationCoupons is the most coupon IDs, or user IDs, one operation
// may list.
const MaxOperationCoupons = 10000

// Validate checks p's kind, target and arguments.
func (p StartOperationParams) Validate() error {
	invalid := func(field, reason string) error { return &coupon.InvalidError{Field: field, Reason: reason} }
	named := 0
	for _, given := range []bool{p.Target.TemplateID != "", len(p.Target.CouponIDs) > 0, len(p.Target.UserIDs) > 0} {
		if given {
			named++
		}
	}
	if named != 1 {
		return invalid("template_id", "name a template, a list of coupon_ids or a list of user_ids, exactly one")
	}
	if id := p.Target.TemplateID; id != "" {
		if err := input.ID("template_id", id); err != nil {
			return err
		}
	}
	for field, ids := range map[string][]string{"coupon_ids": p.Target.CouponIDs, "user_ids": p.Target.UserIDs} {
		if len(ids) > MaxOperationCoupons {
			return invalid(field, fmt.Sprintf("at most %d", MaxOperationCoupons))
		}
		for i, id := range ids {
			if err := input.ID(fmt.Sprintf("%s[%d]", field, i), id); err != nil {
				return err
			}
		}
	}
	switch p.Kind {
	case storetype.OperationVoid:
		switch {
		case !p.Args.ExpiresAt.IsZero():
			return invalid("expires_at", "a void takes none")
		case p.Args.By != 0:
			return invalid("by", "a void takes none")
		}
		return input.Text("reason", p.Args.Reason, input.MaxReason)
	case storetype.OperationExtend:
		switch {
		case p.Args.ExpiresAt.IsZero() == (p.Args.By == 0):
			return invalid("expires_at", "give expires_at or by, exactly one")
		case p.Args.By != 0:
			return input.Duration("by", p.Args.By)
		case !p.Args.ExpiresAt.After(p.Now):
			return invalid("expires_at", "must be in the future")
		}
		return nil
	}
	return invalid("kind", "must be void or extend")
}

// PreviewOperation counts the coupons p would target by state.
func (db *DB) PreviewOperation(ctx context.Context, p StartOperationParams) (map[coupon.State]int64, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if id := p.Target.TemplateID; id != "" {
		info, err := db.Template(ctx, TemplateParams{ID: id, Now: p.Now})
		return info.Counts, err
	}
	counts := map[coupon.State]int64{}
	for _, id := range distinct(p.Target.UserIDs) {
		// A page at a time: a user's wallet may be large.
		for page := (storetype.UserCouponsParams{UserID: id, Now: p.Now, Limit: storetype.MaxWalletPage}); ; {
			cs, err := read(ctx, db, func(x driver.Executor) ([]coupon.Coupon, error) { return x.UserCoupons(ctx, page) })
			if err != nil {
				return nil, err
			}
			for _, c := range cs {
				counts[c.View(p.Now).Status]++
			}
			if len(cs) < page.Limit {
				break
			}
			page.After = cs[len(cs)-1].ID
		}
	}
	for _, id := range distinct(p.Target.CouponIDs) {
		c, err := read(ctx, db, func(x driver.Executor) (coupon.Coupon, error) { return x.Coupon(ctx, driver.CouponParams{ID: id}) })
		switch {
		case errors.Is(err, storetype.ErrNotFound):
			continue
		case err != nil:
			return nil, err
		}
		counts[c.View(p.Now).Status]++
	}
	return counts, nil
}

// distinct returns ids sorted, each once.
func distinct(ids []string) []string {
	return slices.Compact(slices.Sorted(slices.Values(ids)))
}

// StartOperation records a running operation under p.Idem.
func (db *DB) StartOperation(ctx context.Context, p StartOperationParams) (Operation, error) {
	if err := p.Validate(); err != nil {
		return Operation{}, err
	}
	return mutate(ctx, db, p.Idem, func(t *txn) (Operation, error) {
		op := Operation{ID: NewID("op", p.Now), Kind: p.Kind, Target: p.Target, Args: p.Args, Actor: t.actor,
			State: storetype.OperationRunning, CreatedAt: p.Now, Counts: storetype.OperationCounts{Skipped: map[string]int64{}}}
		if id := p.Target.TemplateID; id != "" {
			if _, err := t.Template(t.ctx, id); err != nil {
				return op, err
			}
			n, err := t.IssuedCount(t.ctx, id)
			if err != nil {
				return op, err
			}
			op.Total = n
		} else {
			op.Target.CouponIDs, op.Target.UserIDs = distinct(p.Target.CouponIDs), distinct(p.Target.UserIDs)
			op.Total = int64(len(op.Target.CouponIDs) + len(op.Target.UserIDs))
		}
		return op, t.InsertOperation(t.ctx, op.row())
	})
}

// Operation reads one operation.
func (db *DB) Operation(ctx context.Context, id string) (Operation, error) {
	r, err := read(ctx, db, func(x driver.Executor) (driver.OperationRow, error) { return x.Operation(ctx, id) })
	if err != nil {
		return Operation{}, err
	}
	return operationOf(r)
}

// OperationsParams are the inputs of Operations.
type OperationsParams struct {
	// State, if set, keeps only the operations in it.
	State string
	// After is the ID of the last operation a caller has seen, newest
	// first; "" for none.
	After string
	Limit int
}

// CancelOperationParams are the inputs of CancelOperation.
type CancelOperationParams struct {
	ID  string
	Now time.Time
	// Idem, if set, is the idempotency key the call runs under.
	Idem *Idempotency
}

// Operations lists operations newest first: by ID, so by the time they
// were accepted.
func (db *DB) Operations(ctx context.Context, p OperationsParams) ([]Operation, error) {
	rows, err := read(ctx, db, func(x driver.Executor) ([]driver.OperationRow, error) {
		return x.Operations(ctx, driver.OperationsParams{State: p.State, Before: cmp.Or(p.After, newestFirst("op")), Limit: p.Limit})
	})
	if err != nil {
		return nil, err
	}
	ops := make([]Operation, len(rows))
	for i, r := range rows {
		if ops[i], err = operationOf(r); err != nil {
			return nil, err
		}
	}
	return ops, nil
}

// CancelOperation stops a running operation: it holds the operation, as
// a batch does, so it waits for a batch in flight to commit and no batch
// starts after it; what was worked stays worked, counted in Done and
// Counts, and Total stays what the operation targeted. Cancelling a
// cancelled operation returns it as it is; a done one is refused with
// ErrOperationDone. The cancel is an operation.cancelled event, with its
// actor. Locked coupons a void marked stay marked: the marks
// are work done, counted in PendingLocked.
func (db *DB) CancelOperation(ctx context.Context, p CancelOperationParams) (Operation, error) {
	return mutate(ctx, db, p.Idem, func(t *txn) (Operation, error) {
		op, err := heldOperation(t, p.ID)
		switch {
		case err != nil || op.State == storetype.OperationCancelled:
			return op, err
		case op.State == storetype.OperationDone:
			return op, ErrOperationDone
		}
		op.State, op.FinishedAt, op.Holder, op.LeaseUntil = storetype.OperationCancelled, p.Now, "", time.Time{}
		if err := t.SetOperation(t.ctx, op.row()); err != nil {
			return op, err
		}
		data := OperationEventData{Kind: string(op.Kind), Done: op.Done, Total: op.Total}
		return op, t.Event(storetype.Event{ID: NewID("evt", p.Now), Type: EventOperationCancelled, Subject: op.ID, Time: p.Now, Data: mustJSON(data)})
	})
}

// ClaimOperation takes the first running operation p.Holder may take.
func (db *DB) ClaimOperation(ctx context.Context, p ClaimOperationParams) (Operation, bool, error) {
	type claim struct {
		op Operation
		ok bool
	}
	c, err := background(ctx, db, func(t *txn) (claim, error) {
		ids, err := t.OperationsDue(t.ctx, driver.OperationsDueParams{Holder: p.Holder, Now: p.Now, Limit: 1})
		if err != nil || len(ids) == 0 {
			return claim{}, err
		}
		op, err := heldOperation(t, ids[0])
		if err != nil || op.State != storetype.OperationRunning || (op.Holder != p.Holder && p.Now.Before(op.LeaseUntil)) {
			return claim{}, err
		}
		op.Holder, op.LeaseUntil = p.Holder, p.Now.Add(p.TTL)
		if op.StartedAt.IsZero() {
			op.StartedAt = p.Now
		}
		return claim{op, true}, t.SetOperation(t.ctx, op.row())
	})
	return c.op, c.ok, err
}

// WorkOperation works the next batch of an operation.
func (db *DB) WorkOperation(ctx context.Context, p WorkOperationParams) (Operation, error) {
	return background(ctx, db, func(t *txn) (Operation, error) {
		op, err := heldOperation(t, p.ID)
		if err != nil || op.State != storetype.OperationRunning {
			return op, err
		}
		if op.Holder != p.Holder || !p.Now.Before(op.LeaseUntil) {
			return op, ErrLeaseLost
		}
		// Every event of the operation names who started it.
		t.actor = op.Actor
		return op, (&batch{t: t, op: &op, now: p.Now, templates: map[string]coupon.Template{}, voided: map[string]int64{}}).run(p, db.d.Busy)
	})
}

// heldOperation reads operation id in t, holding it.
func heldOperation(t *txn, id string) (Operation, error) {
	r, err := t.Operation(t.ctx, id)
	if err != nil {
		return Operation{}, err
	}
	return operationOf(r)
}
