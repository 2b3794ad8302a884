package store

import (
	"cmp"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/storetype"
)

// EventCouponExtended is the event of a coupon whose expires_at an
// operation moved.
const EventCouponExtended = "coupon.extended"

// CouponExtendedData is the data of a coupon.extended event.
type CouponExtendedData struct {
	From       storetype.Timestamp `json:"from"`
	To         storetype.Timestamp `json:"to"`
	Status     string              `json:"status"`
	UserID     string              `json:"user_id"`
	TemplateID string              `json:"template_id"`
	Operation  string              `json:"operation"`
}

// skippedMissing counts, in OperationCounts.Skipped, the listed coupon
// IDs that name no coupon.
const skippedMissing = "missing"

// OperationChunk is how many coupons a batch of an operation reads and
// works at a time: between two chunks it asks whether to make way for a
// user's write (see Driver.Busy), so that on a backend with one writer a
// checkout waits for a chunk, not for a whole batch.
const OperationChunk = 25

// batch is one batch of an operation, in one transaction.
type batch struct {
	t         *txn
	op        *Operation
	now       time.Time
	templates map[string]coupon.Template
	// voided counts the coupons voided unused, by template.
	voided map[string]int64
}

// run works up to p.Limit coupons after the operation's cursor, a chunk
// at a time, and stores the operation's progress, done once a chunk comes
// up short. After a chunk it stops early if busy says a user's write
// waits; the next batch goes on from there. Between chunks it also yields
// the processor: on SQLite, which runs in this process, a batch is work
// that never blocks, and a user's request in the same process waited
// for it (a 1 M bulk void on SQLite here, user write p99 against idle at
// a quarter share: 2.8× without the yield, 1.4–1.6× with it).
func (b *batch) run(p WorkOperationParams, busy func() bool) error {
	op := b.op
	looked, short := 0, false
	for looked < p.Limit && !short && (looked == 0 || !busy()) {
		size := min(OperationChunk, p.Limit-looked)
		cs, n, err := b.next(size)
		if err == nil {
			err = b.work(cs)
		}
		if err != nil {
			return err
		}
		looked, short = looked+n, n < size
		runtime.Gosched()
	}
	if err := moveCounts(b.t.ctx, b.t, b.voided, coupon.Unused, coupon.Voided); err != nil {
		return err
	}
	// Done never passes Total: a claim in flight when the operation was
	// accepted is worked but was not counted, and once done, Total is
	// what it worked.
	op.Done += int64(looked)
	op.Total = max(op.Total, op.Done)
	if short {
		op.State, op.FinishedAt, op.Total = storetype.OperationDone, b.now, op.Done
	}
	op.LeaseUntil = p.Now.Add(p.TTL)
	return b.t.SetOperation(b.t.ctx, op.row())
}

// next reads, holding them, up to limit coupons after the cursor, by ID
// (for a list of users, the coupons of up to limit users after it), of
// those that existed when the operation was accepted (a listed coupon ID
// names one that did), moves the cursor past them and returns them with
// how many it looked at, coupons or users (listed coupon IDs that name no
// coupon are counted skipped).
func (b *batch) next(limit int) ([]coupon.Coupon, int, error) {
	op := b.op
	if id := op.Target.TemplateID; id != "" {
		cs, err := b.t.CouponsAfter(b.t.ctx, driver.CouponsAfterParams{TemplateID: id, After: op.Cursor, Until: op.LastCoupon(), Limit: limit})
		if len(cs) > 0 {
			op.Cursor = cs[len(cs)-1].ID
		}
		return cs, len(cs), err
	}
	if users := op.Target.UserIDs; len(users) > 0 {
		users = after(users, op.Cursor, limit)
		if len(users) == 0 {
			return nil, 0, nil
		}
		op.Cursor = users[len(users)-1]
		cs, err := b.t.UsersCoupons(b.t.ctx, driver.UsersCouponsParams{UserIDs: users, Until: op.LastCoupon()})
		return cs, len(users), err
	}
	ids := after(op.Target.CouponIDs, op.Cursor, limit)
	var cs []coupon.Coupon
	for _, id := range ids {
		c, err := b.t.Coupon(b.t.ctx, driver.CouponParams{ID: id})
		switch {
		case errors.Is(err, storetype.ErrNotFound):
			op.Counts.Skipped[skippedMissing]++
		case err != nil:
			return nil, 0, err
		default:
			cs = append(cs, c)
		}
		op.Cursor = id
	}
	return cs, len(ids), nil
}

// after returns up to limit of the sorted ids after cursor.
func after(ids []string, cursor string, limit int) []string {
	from, found := slices.BinarySearch(ids, cursor)
	if found {
		from++
	}
	return ids[from:min(len(ids), from+limit)]
}

// work does the operation's kind to cs, as held in the transaction.
func (b *batch) work(cs []coupon.Coupon) error {
	if b.op.Kind == storetype.OperationVoid {
		return b.void(cs)
	}
	return b.extend(cs)
}

// skip counts c left as it is, by the state it reads as.
func (b *batch) skip(st coupon.State) {
	b.op.Counts.Skipped[st.String()]++
}

// void voids those of cs that are unused, in one statement with one
// compact record of their events, and marks the locked ones to be voided
// when their locks end.
func (b *batch) void(cs []coupon.Coupon) error {
	var unused []coupon.Coupon
	for _, c := range cs {
		switch st := c.View(b.now).Status; st {
		case coupon.Unused:
			unused = append(unused, c)
		case coupon.Locked:
			pv := driver.PendingVoid{CouponID: c.ID, Operation: b.op.ID, Reason: b.op.Args.Reason, Actor: b.op.Actor}
			if err := b.t.PutPendingVoid(b.t.ctx, pv); err != nil {
				return err
			}
			b.op.Counts.PendingLocked++
		default:
			b.skip(st)
		}
	}
	if len(unused) == 0 {
		return nil
	}
	ids := couponIDs(unused)
	if err := b.changed("void", ids, func() (int64, error) { return b.t.VoidCoupons(b.t.ctx, driver.VoidCouponsParams{IDs: ids, Now: b.now}) }); err != nil {
		return err
	}
	if err := b.t.unplan(b.now, ids...); err != nil {
		return err
	}
	for _, c := range unused {
		b.voided[c.TemplateID]++
	}
	b.op.Counts.Voided += int64(len(unused))
	events := couponEvents{Type: EventCouponVoided, From: coupon.Unused, Reason: cmp.Or(b.op.Args.Reason, coupon.Void.String()),
		At: b.now, Coupons: unused, Operation: b.op.ID}
	if !slices.ContainsFunc(unused, func(c coupon.Coupon) bool { return c.ClaimedAt.UnixMilli() >= b.now.UnixMilli() }) {
		return b.t.CouponEvents(events)
	}
	// A coupon claimed in this millisecond: its event's CouponEventID
	// would be its coupon.claimed's, so each event gets an ID of its own.
	for _, e := range events.events(true) {
		e.ID = NewID("evt", b.now)
		if err := b.t.Event(e); err != nil {
			return err
		}
	}
	return nil
}

// changed runs write, a guarded write of the coupons ids, which the
// transaction holds since it read them: anything but all of them changed
// is a bug, not a race.
func (b *batch) changed(what string, ids []string, write func() (int64, error)) error {
	n, err := write()
	if err == nil && n != int64(len(ids)) {
		err = fmt.Errorf("%s: changed %d of %d held coupons: %w", what, n, len(ids), errNoRow)
	}
	return err
}

// couponIDs returns the IDs of cs.
func couponIDs(cs []coupon.Coupon) []string {
	ids := make([]string, len(cs))
	for i, c := range cs {
		ids[i] = c.ID
	}
	return ids
}

// extend moves the expires_at of those of cs that are unused or locked,
// in one statement, with their expiry timers (one per bucket) and their
// reminders, and writes their events. One that expired since the
// operation was accepted stays expired and is counted missed: it was
// unused then, but an expiry is never undone.
func (b *batch) extend(cs []coupon.Coupon) error {
	var from, moved []coupon.Coupon
	for _, c := range cs {
		next := c
		st := c.View(b.now).Status
		if st == coupon.Expired && c.ExpiresAt.After(b.op.CreatedAt) {
			b.op.Counts.Missed++
			continue
		}
		next.ExpiresAt = b.op.Args.ExpiresAt
		if b.op.Args.By > 0 {
			next.ExpiresAt = c.ExpiresAt.Add(b.op.Args.By)
		}
		if (st != coupon.Unused && st != coupon.Locked) || next.ExpiresAt.Equal(c.ExpiresAt) {
			b.skip(st)
			continue
		}
		next.UpdatedAt, next.Version = b.now, c.Version+1
		from, moved = append(from, c), append(moved, next)
	}
	if len(moved) == 0 {
		return nil
	}
	t, ids := b.t, couponIDs(moved)
	p := driver.ExtendCouponsParams{IDs: ids, By: b.op.Args.By, Now: b.now}
	if p.By == 0 {
		p.To = b.op.Args.ExpiresAt
	}
	if err := b.changed("extend", ids, func() (int64, error) { return t.ExtendCoupons(t.ctx, p) }); err != nil {
		return err
	}
	buckets := map[time.Time]bool{}
	for _, c := range moved {
		if c.Status == coupon.Unused && !buckets[storetype.BucketOf(c.ExpiresAt)] {
			buckets[storetype.BucketOf(c.ExpiresAt)] = true
			if err := t.Timer(storetype.TimerExpire, c.ExpiresAt); err != nil {
				return err
			}
		}
	}
	if err := b.replan(moved); err != nil {
		return err
	}
	b.op.Counts.Extended += int64(len(moved))
	for i, c := range moved {
		st := from[i].View(b.now).Status
		d := CouponExtendedData{From: storetype.Timestamp(from[i].ExpiresAt), To: storetype.Timestamp(c.ExpiresAt), Status: st.String(), UserID: c.UserID, TemplateID: c.TemplateID, Operation: b.op.ID}
		if err := t.Event(storetype.Event{ID: NewID("evt", b.now), Type: EventCouponExtended, Subject: c.ID, Time: b.now, Data: mustJSON(d)}); err != nil {
			return err
		}
	}
	return nil
}

// replan moves the planned reminders of cs, coupons whose expires_at
// moved, to their new expires_at: those of templates with reminders are
// unplanned in one statement, and the unused ones planned again (a
// locked coupon's are planned again when it comes back unused).
func (b *batch) replan(cs []coupon.Coupon) error {
	var reminded []coupon.Coupon
	for _, c := range cs {
		tp, ok := b.templates[c.TemplateID]
		if !ok {
			var err error
			if tp, err = b.t.Template(b.t.ctx, c.TemplateID); err != nil {
				return err
			}
			b.templates[c.TemplateID] = tp
		}
		if len(b.t.policy.LeadsFor(tp.Reminders)) > 0 {
			reminded = append(reminded, c)
		}
	}
	if len(reminded) == 0 {
		return nil
	}
	if err := b.t.unplan(b.now, couponIDs(reminded)...); err != nil {
		return err
	}
	for _, c := range reminded {
		if c.Status != coupon.Unused {
			continue
		}
		if err := b.t.plan(c, b.templates[c.TemplateID], false, b.now); err != nil {
			return err
		}
	}
	return nil
}
