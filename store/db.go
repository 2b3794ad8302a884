package store

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/remind"
	"github.com/lapsehq/lapse/storetype"
)

// DB is the service layer: every Store method, its rules written once over
// a Driver.
type DB struct {
	d       driver.Driver
	hooks   Hooks
	policy  remind.Config
	buckets bucketCounts
}

var _ Store = (*DB)(nil)

// Options tune a DB. The zero value works.
type Options struct {
	// Hooks hear of every commit.
	Hooks Hooks
	// Remind is the reminder policy; nil means remind.Default().
	Remind *remind.Config
}

// New returns the service layer over d.
func New(d driver.Driver, opts Options) *DB {
	db := &DB{d: d, hooks: opts.Hooks, policy: remind.Default()}
	if opts.Remind != nil {
		db.policy = *opts.Remind
	}
	return db
}

// Open returns the service over d with these options, or err: it takes a
// driver's Open as it returns, as in
// store.Options{}.Open(sqlite.Open(ctx, path, sqlite.Options{})).
func (opts Options) Open(d driver.Driver, err error) (*DB, error) {
	if err != nil {
		return nil, err
	}
	return New(d, opts), nil
}

// Driver returns the driver db runs on.
func (db *DB) Driver() driver.Driver { return db.d }

// txn is one write transaction as the rules see it: the driver's, with
// the context it runs under (every statement's), the events it buffers
// for the driver to write at its commit, and what it did to reminders,
// for the hooks.
type txn struct {
	driver.ExecutorTx
	ctx       context.Context
	outbox    outbox
	policy    *remind.Config
	reminders ReminderCounts
	buckets   *bucketCounts
	// pick is the transaction's bucket number: its stock moves of a SKU
	// of n buckets run in bucket pick % n (see moveStock), but for the
	// SKUs in locked, whose buckets it locks first.
	pick   int
	locked map[string]bool
	// actor is the credential the transaction runs for (see WithActor),
	// recorded in each event it writes; "" for none.
	actor string
}

// Event adds e to the outbox, with the transaction's actor in its data.
func (t *txn) Event(e storetype.Event) error { return t.eventBy(t.actor, e) }

// eventBy adds e to the outbox, with actor in its data.
func (t *txn) eventBy(actor string, e storetype.Event) error {
	e.Data = withActor(e.Data, actor)
	t.outbox.add(e)
	return nil
}

// EventOnce adds e, with the transaction's actor in its data, unless an
// event with its ID is stored: first in a record, so that its ID is the
// record's.
func (t *txn) EventOnce(e storetype.Event) error {
	if stored, err := t.EventStored(t.ctx, e.ID); err != nil || stored {
		return err
	}
	e.Data = withActor(e.Data, t.actor)
	t.outbox.start(e)
	return nil
}

// CouponEvents adds b's events, with the transaction's actor in their
// data.
func (t *txn) CouponEvents(b couponEvents) error {
	b.Actor = t.actor
	t.outbox.addCoupons(b)
	return nil
}

// Timer makes sure the group timer of kind for due's bucket exists.
func (t *txn) Timer(kind storetype.TimerKind, due time.Time) error {
	return t.PutTimer(t.ctx, storetype.Timer{Kind: kind, Due: storetype.BucketOf(due)})
}

// attempts is how often run runs a transaction that keeps losing
// deadlocks (or, on MySQL, once-only event races) before it gives up.
const attempts = 5

// run runs fn in one write transaction (background: see Driver.Begin),
// again if the driver says it was rolled back to break a deadlock, and
// once it commits tells the hooks what it wrote. A transaction that found
// its own bucket of a SKU short runs again at once, locking that SKU's
// buckets (see moveStock); that is not a failed try.
func run[T any](ctx context.Context, db *DB, background bool, fn func(*txn) (T, error)) (T, error) {
	locked := map[string]bool{}
	var down outageRetry
	began := time.Now()
	for try := 1; ; try++ {
		res, err := attempt(ctx, db, background, locked, fn)
		if sku, ok := shortBucket(err); ok && !locked[sku] {
			locked[sku] = true
			try--
			continue
		}
		out, retry := db.d.Classify(err)
		if out == nil {
			if h := db.hooks.OnUserWrite; h != nil && !background {
				h(time.Since(began))
			}
			return res, nil
		}
		var zero T
		if ctx.Err() != nil {
			// A transaction whose context ended is rolled back under it:
			// its statement's error then (sql: transaction has already
			// been committed or rolled back) says less than why.
			return zero, fmt.Errorf("%w (%w)", ctx.Err(), out)
		}
		if errors.Is(out, storetype.ErrUnavailable) {
			if !down.again(ctx, err) {
				return zero, out
			}
			try--
			continue
		}
		if !retry || try == attempts {
			return zero, out
		}
		// Let the transactions it deadlocked with take what they waited
		// for first: at once, it could take it again and close the same
		// cycle.
		select {
		case <-ctx.Done():
			return zero, out
		case <-time.After(time.Duration(try) * (5*time.Millisecond + rand.N(20*time.Millisecond))):
		}
	}
}

// attempt is one attempt of run.
func attempt[T any](ctx context.Context, db *DB, background bool, locked map[string]bool, fn func(*txn) (T, error)) (T, error) {
	var zero T
	dt, err := db.d.Begin(ctx, background)
	if err != nil {
		return zero, err
	}
	defer dt.Rollback()
	t := &txn{ExecutorTx: dt, ctx: ctx, policy: &db.policy, actor: Actor(ctx), buckets: &db.buckets, pick: rand.Int(), locked: locked}
	res, err := fn(t)
	if err != nil && !replay(err) {
		return zero, err
	}
	timers, cerr := dt.Commit(ctx, t.outbox.Records())
	if cerr != nil {
		return zero, &commitError{cerr}
	}
	if err != nil {
		// A replay, committed so that its record is durable (see durably).
		return zero, err
	}
	db.hooks.Committed(timers, t.outbox.Events())
	if h := db.hooks.OnReminders; h != nil && t.reminders.Any() {
		h(t.reminders)
	}
	return res, nil
}

// mutate runs fn, a user's write, in a foreground transaction under the
// idempotency key idem if set (see idempotent).
func mutate[T any](ctx context.Context, db *DB, idem *Idempotency, fn func(*txn) (T, error)) (T, error) {
	return idempotent(ctx, idem, func(fn func(*txn) (T, error)) (T, error) { return run(ctx, db, false, fn) }, fn)
}

// mutateValid runs in(t, p), a user's write, as mutate does under idem,
// once p passes its Validate.
func mutateValid[P interface{ Validate() error }, T any](ctx context.Context, db *DB, p P, idem *Idempotency, in func(*txn, P) (T, error)) (T, error) {
	return validated(p, func() (T, error) {
		return mutate(ctx, db, idem, func(t *txn) (T, error) { return in(t, p) })
	})
}

// background runs fn, a drain or upkeep batch, in a background
// transaction.
func background[T any](ctx context.Context, db *DB, fn func(*txn) (T, error)) (T, error) {
	return run(ctx, db, true, fn)
}
