package store

import (
	"context"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/remind"
	"github.com/lapsehq/lapse/storetype"
)

// Store is the service's whole surface and its contract: DB, the service
// layer, implements it over a Driver, and the conformance suite
// (storetest) holds every backend to it. A consumer takes only what it
// calls, declared where it calls it (engine.Store, outbox.Store,
// httpapi.Store, bench.Store), which DB meets as it meets this.
type Store interface {
	// CreateTemplate stores a validated template and assigns its ID.
	CreateTemplate(ctx context.Context, p CreateTemplateParams) (coupon.Template, error)
	// Template returns a template with its coupon counts by state, the
	// lazy check applied at p.Now.
	Template(ctx context.Context, p TemplateParams) (storetype.TemplateInfo, error)
	// Templates lists up to p.Limit templates by ID after p.After (""
	// from the first), without counts.
	Templates(ctx context.Context, p storetype.TemplatesParams) ([]coupon.Template, error)
	// ChangeTemplate changes a template's name, value, total or reminders
	// (see coupon.TemplateChange) with a compare-and-set, and writes a
	// template.updated event if anything changed. A total below what is
	// already issued is refused as invalid and changes nothing.
	ChangeTemplate(ctx context.Context, p ChangeTemplateParams) (coupon.Template, error)
	// CloseTemplate closes a template, with a template.closed event: it
	// takes no more claims nor issuance (coupon.ErrTemplateClosed), and
	// its coupons live on. Closing a closed template changes nothing.
	CloseTemplate(ctx context.Context, p CloseTemplateParams) (coupon.Template, error)
	// Claim issues one coupon of a template to a user under its rules.
	Claim(ctx context.Context, p ClaimParams) (coupon.Coupon, error)
	// Issue issues one coupon of a template to each user of a list, as
	// Claim would, in transactions of many users each; see IssueParams.
	Issue(ctx context.Context, p IssueParams) (Issued, error)
	// Coupon returns one coupon as stored (callers apply View), archived
	// or not.
	Coupon(ctx context.Context, id string) (coupon.Coupon, error)
	// UserCoupons reads a page of a user's wallet: up to p.Limit of their
	// coupons with an ID after p.After, by ID in byte order, the lazy
	// check applied at p.Now and, if p.Status is set, only those it
	// reads in that state; with p.Archived, their archived coupons are
	// in the same order among them. What it holds is one page, however
	// large the wallet.
	UserCoupons(ctx context.Context, p storetype.UserCouponsParams) ([]coupon.Coupon, error)
	// Transition applies one action of the coupon table to one coupon,
	// for an order of an outside order system: an order ID that names a
	// lapse order is refused with ErrLapseOrder, as its coupons move only
	// with it.
	Transition(ctx context.Context, p TransitionParams) (coupon.Coupon, error)

	// ExpireDue moves up to p.Limit unused coupons with expires_at <= p.Now
	// to expired, oldest due first, with a coupon.expired event each.
	ExpireDue(ctx context.Context, p storetype.DueParams) (Drained, error)
	// ReleaseLocks gives back up to p.Limit locked coupons whose
	// locked_until <= p.Now: to unused, or expired past expires_at.
	ReleaseLocks(ctx context.Context, p storetype.DueParams) (Drained, error)
	// Timers returns group timers due at or before p.Before, earliest first.
	Timers(ctx context.Context, p storetype.TimersParams) ([]storetype.Timer, error)
	// DeleteTimers removes the timers of p.Kind whose whole bucket lies at
	// or before p.Through: their work is done.
	DeleteTimers(ctx context.Context, p DeleteTimersParams) error

	// PutSKU sets a SKU's total stock and, if p.Buckets is set, how many
	// buckets it is split into: available becomes what reserved and sold
	// leave of it. A stock below reserved + sold is refused.
	PutSKU(ctx context.Context, p PutSKUParams) (storetype.SKU, error)
	// SKU returns one SKU's counters, summed over its buckets.
	SKU(ctx context.Context, sku string) (storetype.SKU, error)
	// CreateOrder reserves the items' stock, locks the coupons for the
	// order and stores it unpaid, all in one transaction.
	CreateOrder(ctx context.Context, p CreateOrderParams) (order.Order, error)
	// Order returns one order, archived or not.
	Order(ctx context.Context, id string) (order.Order, error)
	// PayOrder turns an unpaid order's reserved stock into sold and its
	// coupons into used. A payment for a closed order (or one past its
	// deadline, unless Confirmed) is refused with order.ErrClosed and
	// recorded as an order.late_payment event.
	PayOrder(ctx context.Context, p PayOrderParams) (order.Order, error)
	// CloseOrder closes an unpaid order, giving back its stock and coupons.
	CloseOrder(ctx context.Context, p CloseOrderParams) (order.Order, error)
	// DueOrders lists up to p.Limit unpaid orders past their deadline,
	// earliest first, without changing them.
	DueOrders(ctx context.Context, p storetype.DueParams) (storetype.DueOrders, error)
	// CloseDueOrders closes up to p.Limit unpaid orders past their
	// deadline with reason timeout, in one transaction.
	CloseDueOrders(ctx context.Context, p storetype.DueParams) (Drained, error)

	// Events returns the outbox after a cursor, in commit order. It never
	// skips a committed event: a later call never returns an event at or
	// before a cursor an earlier call returned.
	Events(ctx context.Context, p EventsParams) ([]storetype.Event, error)
	// FeedEnd returns the feed's head: the cursor of the last event it
	// has numbered, one row read however long the feed. A page after it
	// holds only what commits later.
	FeedEnd(ctx context.Context) (int64, error)
	// PruneRequests deletes up to p.Limit of the requests recorded under
	// idempotency keys at or before p.Before, oldest first, and returns
	// how many it deleted.
	PruneRequests(ctx context.Context, p storetype.PruneRequestsParams) (int64, error)
	// Archive moves terminal coupons and paid or closed orders last
	// changed at or before p.Before to the archive, and prunes reminder
	// history, in batches; see DB.Archive.
	Archive(ctx context.Context, p ArchiveParams) (storetype.Archived, error)
	// PruneEvents deletes, from the front of the feed, up to p.Limit
	// records of events all at or before the cursor p.Through and
	// written before p.Before, stopping at the first record that must
	// stay, and returns how many events it deleted.
	PruneEvents(ctx context.Context, p PruneParams) (int64, error)
	// SinkState returns what is stored of the named sink; a sink never
	// seen reads as the zero state.
	SinkState(ctx context.Context, sink string) (storetype.SinkState, error)
	// AdvanceSink records, in one transaction, a sink's progress: its new
	// position, the events it gave up on and the dead letters a replay
	// delivered.
	AdvanceSink(ctx context.Context, p storetype.AdvanceSinkParams) error
	// DeadLetters lists a sink's dead letters in feed order.
	DeadLetters(ctx context.Context, p storetype.DeadLettersParams) ([]storetype.DeadLetter, error)
	// ReplayDeadLetters queues every dead letter of the sink for
	// redelivery and returns how many are queued.
	ReplayDeadLetters(ctx context.Context, p ReplayDeadLettersParams) (int64, error)

	// PutUser sets a user's profile (timezone, channels), keeping their
	// last activity, and re-times their planned reminders to it.
	PutUser(ctx context.Context, p PutUserParams) (remind.User, error)
	// User returns a user known by a profile or by an action of theirs.
	User(ctx context.Context, id string) (remind.User, error)
	// SendDueReminders sends up to p.Limit planned reminders due at or
	// before p.Now, earliest first, in one transaction: each lists the
	// coupons still unused and not yet reminded of its lead, and is sent
	// as one reminder.due event on the channel the policy picks, or is
	// dropped (nothing left, daily cap reached), or is held back to the
	// end of quiet hours p.Now falls in. Due holds the due times of those
	// sent or dropped.
	SendDueReminders(ctx context.Context, p storetype.DueParams) (Drained, error)

	// Lease renews p.Holder's leases, takes free or expired shards up to
	// a fair share of the live instances, gives up those above it, and
	// returns what p.Holder holds, each valid until p.TTL after now on the
	// database's clock. A drain given DueParams.Leases touches only their
	// shards' rows and commits only if, at its commit, every one is still
	// held with its token and has not expired: a paused instance that
	// wakes with a stale lease writes nothing.
	Lease(ctx context.Context, p LeaseParams) ([]storetype.Lease, error)
	// Clock reads the database's clock.
	Clock(ctx context.Context) (time.Time, error)

	// CreateToken stores a new API credential and returns it with its
	// secret, which only the caller ever sees: the store keeps its hash.
	// ErrTokenExists if a token of its name exists, live or revoked.
	CreateToken(ctx context.Context, p CreateTokenParams) (tk storetype.Token, secret string, err error)
	// RevokeToken revokes the named token at p.Now (a token already
	// revoked keeps its first revocation) and returns it; ErrNotFound if
	// no token has that name.
	RevokeToken(ctx context.Context, p RevokeTokenParams) (storetype.Token, error)
	// Tokens lists every token, live and revoked, by name.
	Tokens(ctx context.Context) ([]storetype.Token, error)

	// PreviewOperation counts by state, the lazy check applied, the
	// coupons an operation of p would target, and changes nothing.
	PreviewOperation(ctx context.Context, p StartOperationParams) (map[coupon.State]int64, error)
	// StartOperation records a bulk operation, running, for the engine to
	// work in batches (see WorkOperation). An extension to a time not
	// after p.Now, or of a non-positive duration, is invalid; an unknown
	// template ErrNotFound.
	StartOperation(ctx context.Context, p StartOperationParams) (Operation, error)
	// Operation returns one bulk operation.
	Operation(ctx context.Context, id string) (Operation, error)
	// Operations lists up to p.Limit operations after p.After, newest
	// first, those in p.State if it is set.
	Operations(ctx context.Context, p OperationsParams) ([]Operation, error)
	// CancelOperation stops a running operation after its batch in
	// flight; see DB.CancelOperation.
	CancelOperation(ctx context.Context, p CancelOperationParams) (Operation, error)
	// ClaimOperation takes a running operation for p.Holder until p.TTL
	// after p.Now: one no other holder works (or whose lease passed);
	// false if there is none.
	ClaimOperation(ctx context.Context, p ClaimOperationParams) (Operation, bool, error)
	// WorkOperation works the next batch of an operation p.Holder holds,
	// in one background transaction that stores the cursor, the counts
	// and a renewed lease with the batch: a crash resumes after the last
	// batch committed. ErrLeaseLost if p.Holder no longer holds it.
	WorkOperation(ctx context.Context, p WorkOperationParams) (Operation, error)

	// Reconcile checks the stock, the open orders, the coupon locks and
	// the group timers against each other, and repairs what it can of
	// what it finds if p.Repair (see Reconciliation).
	Reconcile(ctx context.Context, p ReconcileParams) (Reconciliation, error)
	// Stats reads the gauges the engine exports.
	Stats(ctx context.Context, now time.Time) (storetype.Stats, error)
	// Forecast counts the coupons, locks and orders falling due in each
	// bucket of p, by kind; see DB.Forecast.
	Forecast(ctx context.Context, p storetype.ForecastParams) ([]storetype.DueCount, error)
	// ShardLeases reads every shard's lease as stored, by shard: which
	// instance holds it, under what token, until when.
	ShardLeases(ctx context.Context) ([]storetype.ShardLease, error)
	// MeasuredSkew records an instance alive with its clock skew just
	// measured; see DB.MeasuredSkew.
	MeasuredSkew(ctx context.Context, p MeasuredSkewParams) error
	// Instances reads the instances seen within d, by name, with their
	// last measured clock skew.
	Instances(ctx context.Context, d time.Duration) ([]storetype.Instance, error)
	// Ready reports whether the store is reachable and migrated.
	Ready(ctx context.Context) error
	// Close releases the store's connections.
	Close() error
}

// CreateTemplateParams are the inputs of CreateTemplate.
type CreateTemplateParams struct {
	Template coupon.Template
	Now      time.Time
	// Idem, if set, is the idempotency key the call runs under.
	Idem *Idempotency
}

// TemplateParams are the inputs of Template.
type TemplateParams struct {
	ID  string
	Now time.Time
}

// ChangeTemplateParams are the inputs of ChangeTemplate.
type ChangeTemplateParams struct {
	ID     string
	Change coupon.TemplateChange
	Now    time.Time
	// Idem, if set, is the idempotency key the call runs under.
	Idem *Idempotency
}

// CloseTemplateParams are the inputs of CloseTemplate.
type CloseTemplateParams struct {
	ID string
	// Reason, if set, is recorded in the event's data.
	Reason string
	Now    time.Time
	// Idem, if set, is the idempotency key the call runs under.
	Idem *Idempotency
}

// ClaimParams are the inputs of Claim.
type ClaimParams struct {
	TemplateID string
	UserID     string
	Now        time.Time
	// Idem, if set, is the idempotency key the call runs under.
	Idem *Idempotency
}

// TransitionParams are the inputs of Transition.
type TransitionParams struct {
	CouponID string
	Action   coupon.Action
	OrderID  string
	// LockTTL is how long a Lock holds; required for Lock.
	LockTTL time.Duration
	// MaxLockTTL, if set, bounds LockTTL.
	MaxLockTTL time.Duration
	// Reason is recorded in the event's data (void reason, say).
	Reason string
	// Operation, if set, is the bulk operation the transition is part
	// of, recorded in the event's data.
	Operation string
	Now       time.Time
	// Idem, if set, is the idempotency key the call runs under.
	Idem *Idempotency
}

// Drained is what one drain batch did.
type Drained struct {
	// Due holds the due time of each transitioned coupon, for lag metrics.
	Due []time.Time
	// Next is the earliest due time still pending after the batch, zero if
	// nothing is pending.
	Next time.Time
}

// DeleteTimersParams are the inputs of DeleteTimers.
type DeleteTimersParams struct {
	Kind    storetype.TimerKind
	Through time.Time
}

// EventsParams are the inputs of Events: events after the cursor After
// (0: from the start), at most Limit, and, if MaxBytes is set, no more
// once their data reaches MaxBytes bytes (at least one event): what one
// read holds is bounded however large the events are.
type EventsParams struct {
	After    int64
	Limit    int
	MaxBytes int
}

// Full reports whether a read of events whose data add up to size bytes
// is to stop by p.MaxBytes.
func (p EventsParams) Full(size int) bool { return p.MaxBytes > 0 && size >= p.MaxBytes }
