package store

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/lapsehq/lapse/coupon"
)

// EventCouponExtended is the event of a coupon whose expires_at an
// operation moved.
const EventCouponExtended = "coupon.extended"

// CouponExtendedData is the data of a coupon.extended event.
type CouponExtendedData struct {
	From       Timestamp `json:"from"`
	To         Timestamp `json:"to"`
	Status     string    `json:"status"`
	UserID     string    `json:"user_id"`
	TemplateID string    `json:"template_id"`
	Operation  string    `json:"operation"`
}

// skippedMissing counts, in OperationCounts.Skipped, the listed coupon
// IDs that name no coupon.
const skippedMissing = "missing"

// batch is one batch of an operation, in one transaction.
type batch struct {
	t         *txn
	op        *Operation
	now       time.Time
	templates map[string]coupon.Template
	// voided counts the coupons voided unused, by template.
	voided map[string]int64
}

// run works up to p.Limit coupons after the operation's cursor and
// stores the operation's progress, done once a batch comes up short.
func (b *batch) run(p WorkOperationParams) error {
	op := b.op
	n, err := b.each(p.Limit, b.work)
	if err == nil {
		err = MoveCounts(b.t, b.voided, coupon.Unused, coupon.Voided)
	}
	if err != nil {
		return err
	}
	op.Done += int64(n)
	if n < p.Limit {
		op.State, op.FinishedAt = OperationDone, b.now
	}
	op.LeaseUntil = p.Now.Add(p.TTL)
	return b.t.SetOperation(op.row())
}

// each calls fn with each of up to limit coupons after the cursor, by
// ID, moving the cursor past it, and returns how many it looked at.
func (b *batch) each(limit int, fn func(coupon.Coupon) error) (int, error) {
	op := b.op
	if id := op.Target.TemplateID; id != "" {
		cs, err := b.t.CouponsAfter(CouponsAfterParams{TemplateID: id, After: op.Cursor, Limit: limit})
		for _, c := range cs {
			if err := fn(c); err != nil {
				return 0, err
			}
			op.Cursor = c.ID
		}
		return len(cs), err
	}
	ids := op.Target.CouponIDs
	from, found := slices.BinarySearch(ids, op.Cursor)
	if found {
		from++
	}
	ids = ids[from:min(len(ids), from+limit)]
	for _, id := range ids {
		c, err := b.t.Coupon(id)
		switch {
		case errors.Is(err, ErrNotFound):
			op.Counts.Skipped[skippedMissing]++
		case err != nil:
			return 0, err
		default:
			if err := fn(c); err != nil {
				return 0, err
			}
		}
		op.Cursor = id
	}
	return len(ids), nil
}

// work does the operation's kind to c, as held in the transaction.
func (b *batch) work(c coupon.Coupon) error {
	if b.op.Kind == OperationVoid {
		return b.void(c)
	}
	return b.extend(c)
}

// skip counts c left as it is, by the state it reads as.
func (b *batch) skip(st coupon.State) {
	b.op.Counts.Skipped[st.String()]++
}

// void voids c if unused, or marks it to be voided when its lock ends.
func (b *batch) void(c coupon.Coupon) error {
	switch st := c.View(b.now).Status; st {
	case coupon.Unused:
		// The transition of the coupon table, with the counts moved once
		// for the batch (see run).
		next := Apply(c, coupon.Voided, TransitionParams{Now: b.now})
		ok, err := b.t.SetCoupon(c, next)
		if err == nil && !ok {
			// The row is held since it was read: only a bug gets here.
			err = fmt.Errorf("void coupon %s at version %d: %w", c.ID, c.Version, errNoRow)
		}
		if err == nil {
			err = b.t.unplan(c.ID, b.now)
		}
		if err != nil {
			return err
		}
		b.voided[c.TemplateID]++
		b.op.Counts.Voided++
		d := CouponEventData{From: coupon.Unused.String(), Reason: cmp.Or(b.op.Args.Reason, coupon.Void.String()),
			UserID: c.UserID, TemplateID: c.TemplateID, ExpiresAt: Timestamp(c.ExpiresAt), Operation: b.op.ID}
		return b.t.Event(Event{ID: NewID("evt", b.now), Type: EventCouponVoided, Subject: c.ID, Time: b.now, Data: mustJSON(d)})
	case coupon.Locked:
		pv := PendingVoid{CouponID: c.ID, Operation: b.op.ID, Reason: b.op.Args.Reason, Actor: b.op.Actor}
		if err := b.t.PutPendingVoid(pv); err != nil {
			return err
		}
		b.op.Counts.PendingLocked++
	default:
		b.skip(st)
	}
	return nil
}

// extend moves the expires_at of c, unused or locked, with its expiry
// timer and its reminders.
func (b *batch) extend(c coupon.Coupon) error {
	st := c.View(b.now).Status
	to := b.op.Args.ExpiresAt
	if b.op.Args.By > 0 {
		to = c.ExpiresAt.Add(b.op.Args.By)
	}
	if (st != coupon.Unused && st != coupon.Locked) || to.Equal(c.ExpiresAt) {
		b.skip(st)
		return nil
	}
	t := b.t
	ok, err := t.ExtendCoupon(c, to, b.now)
	if err == nil && !ok {
		// The row is held since it was read: only a bug gets here.
		err = fmt.Errorf("extend coupon %s at version %d: %w", c.ID, c.Version, errNoRow)
	}
	if err != nil {
		return err
	}
	next := c
	next.ExpiresAt, next.UpdatedAt, next.Version = to, b.now, c.Version+1
	if st == coupon.Unused {
		if err := t.Timer(TimerExpire, to); err != nil {
			return err
		}
	}
	if err := b.replan(next); err != nil {
		return err
	}
	b.op.Counts.Extended++
	d := CouponExtendedData{From: Timestamp(c.ExpiresAt), To: Timestamp(to), Status: st.String(), UserID: c.UserID, TemplateID: c.TemplateID, Operation: b.op.ID}
	return t.Event(Event{ID: NewID("evt", b.now), Type: EventCouponExtended, Subject: c.ID, Time: b.now, Data: mustJSON(d)})
}

// replan moves c's planned reminders to its new expires_at: a locked
// coupon's are planned again when it comes back unused.
func (b *batch) replan(c coupon.Coupon) error {
	tp, ok := b.templates[c.TemplateID]
	if !ok {
		var err error
		if tp, err = b.t.Template(c.TemplateID); err != nil {
			return err
		}
		b.templates[c.TemplateID] = tp
	}
	if len(b.t.policy.LeadsFor(tp.Reminders)) == 0 {
		return nil
	}
	if err := b.t.unplan(c.ID, b.now); err != nil {
		return err
	}
	if c.Status != coupon.Unused {
		return nil
	}
	return b.t.plan(c, tp, false, b.now)
}
