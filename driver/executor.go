package driver

import (
	"context"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/remind"
	"github.com/lapsehq/lapse/storetype"
)

// Executor is every statement of a driver, each one of its own SQL (or a
// write it buffers until its commit) or the dialect's drain of one kind
// of due work. Each takes the context and one argument: a value, or a
// params struct when it needs more. The same methods run in a write
// transaction (ExecutorTx) and outside one (Driver.Executor, reads only).
// A missing row is storetype.ErrNotFound.
type Executor interface {
	// Templates and the coupons claimed from them.

	// Template reads a template.
	Template(ctx context.Context, id string) (coupon.Template, error)
	// TemplateInfo reads template p.ID with its stored counts by state,
	// and how many of its unused coupons are past expires_at at p.Now,
	// in one snapshot.
	TemplateInfo(ctx context.Context, p TemplateInfoParams) (info storetype.TemplateInfo, dueUnused int64, err error)
	// ClaimTemplate reads a template that is being claimed from: claims
	// of one template queue here, so that each checks the per-user limit
	// and the total on what the previous one committed.
	ClaimTemplate(ctx context.Context, id string) (coupon.Template, error)
	// Templates reads up to p.Limit templates with an ID after p.After,
	// by ID in byte order; if p.Newest, with an ID before it, by ID
	// descending.
	Templates(ctx context.Context, p storetype.TemplatesParams) ([]coupon.Template, error)
	// InsertTemplate stores a new template.
	InsertTemplate(ctx context.Context, tp coupon.Template) error
	// SetTemplate stores p.Next's name, value, total, reminders and
	// closed_at over p.From, with p.From's version plus one, unless the
	// stored template has left p.From's version or has issued more
	// coupons than p.Next's total allows: a compare-and-set; false if it
	// changed nothing.
	SetTemplate(ctx context.Context, p SetTemplateParams) (bool, error)
	// IssuedCount reads how many coupons of a template are issued.
	IssuedCount(ctx context.Context, templateID string) (int64, error)
	// TakeIssues counts p.N more coupons of template p.TemplateID
	// issued; false if that would pass its total.
	TakeIssues(ctx context.Context, p TakeIssuesParams) (bool, error)
	// HeldCounts returns how many coupons of template p.TemplateID each
	// of p.Users holds, archived ones too; a user it leaves out holds
	// none.
	HeldCounts(ctx context.Context, p HeldCountsParams) (map[string]int64, error)
	// Count moves p.N coupons of template p.TemplateID into state
	// p.State (p.N < 0: out of it).
	Count(ctx context.Context, p CountParams) error

	// Coupons.

	// Coupon reads one coupon as stored, or with p.Archived one archived
	// coupon.
	Coupon(ctx context.Context, p CouponParams) (coupon.Coupon, error)
	// ExistingCoupons returns which of ids name a stored coupon, archived
	// or not.
	ExistingCoupons(ctx context.Context, ids []string) (map[string]bool, error)
	// InsertClaimed stores new unused coupons of one template, all claimed
	// at one instant.
	InsertClaimed(ctx context.Context, cs []coupon.Coupon) error
	// SetCoupon stores p.Next over p.From, unless the stored coupon has
	// left p.From's state and version: a compare-and-set; false if it
	// changed nothing.
	SetCoupon(ctx context.Context, p SetCouponParams) (bool, error)
	// LockCoupons reads the listed coupons that exist, by ID, holding
	// them in a transaction until it ends.
	LockCoupons(ctx context.Context, ids []string) ([]coupon.Coupon, error)
	// UnlockCoupons moves, in one statement, those of coupons p.IDs that
	// are locked to p.To (order_id and locked_until cleared, updated_at
	// p.Now, version plus one, as SetCoupon stores an unlock), and
	// returns how many it changed. The caller holds them (LockCoupons)
	// and has decided each one's move.
	UnlockCoupons(ctx context.Context, p UnlockCouponsParams) (int64, error)
	// UserCoupons reads up to p.Limit of a user's coupons as stored with
	// an ID after p.After, by ID in byte order, those whose state the
	// lazy check reads at p.Now as p.StatusFilter() if that is set, and,
	// with p.Archived, archived coupons among them: a walk of an index
	// on (user_id, id) of each table that stops at p.Limit coupons.
	UserCoupons(ctx context.Context, p storetype.UserCouponsParams) ([]coupon.Coupon, error)

	// Idempotency keys.

	// Request reads the request recorded under an idempotency key.
	Request(ctx context.Context, key string) (Request, error)
	// PutRequest records p.Request under p.Key; ErrRequestTaken if a
	// concurrent transaction recorded a request under it first.
	PutRequest(ctx context.Context, p RequestParams) error
	// FinishRequest stores the response of the request in flight under
	// p.Key: p.Request's status and body.
	FinishRequest(ctx context.Context, p RequestParams) error
	// ForgetRequest deletes the request recorded under p.Key if it was
	// created at or before p.Before: it expired.
	ForgetRequest(ctx context.Context, p ForgetRequestParams) error
	// PruneRequests deletes up to p.Limit requests recorded at or before
	// p.Before, oldest first, and returns how many.
	PruneRequests(ctx context.Context, p storetype.PruneRequestsParams) (int64, error)

	// Stock.

	// StockBuckets reads every bucket of a SKU, in bucket order, and in
	// a transaction holds them until it ends; none if the SKU is
	// unknown. On PostgreSQL it may miss buckets a PutStockBucket it
	// waited for inserted (see lockStock).
	StockBuckets(ctx context.Context, sku string) ([]StockBucket, error)
	// AddStock adds d's amounts to one bucket of a SKU, unless the bucket
	// is missing, the SKU's bucket count is not d.Buckets or the bucket's
	// available would go negative; false if it changed nothing.
	AddStock(ctx context.Context, d StockDelta) (bool, error)
	// NewStock stores a new SKU of one empty bucket, unless the SKU exists
	// (one a concurrent transaction is creating is waited for).
	NewStock(ctx context.Context, p NewStockParams) error
	// PutStockBucket stores one bucket of a SKU, its counters and count,
	// whether the bucket exists or not.
	PutStockBucket(ctx context.Context, p PutStockBucketParams) error
	// DropStockBuckets deletes SKU p.SKU's buckets numbered from p.From on.
	DropStockBuckets(ctx context.Context, p DropStockBucketsParams) error
	// StockPage reads the sums of up to p.Limit SKUs with a SKU after
	// p.After, by SKU in byte order, with the stock last put.
	StockPage(ctx context.Context, p PageParams) ([]StockSum, error)

	// Orders.

	// InsertOrder stores a new unpaid order.
	InsertOrder(ctx context.Context, o order.Order) error
	// Order reads one order, or with p.Archived one archived order.
	Order(ctx context.Context, p OrderParams) (order.Order, error)
	// SetOrder stores p.Next's status, close reason, payment and update
	// time over p.From, unless the stored order has left unpaid or
	// p.From's version: a compare-and-set; false if it changed nothing.
	SetOrder(ctx context.Context, p SetOrderParams) (bool, error)
	// CloseOrders closes, in one statement, those of orders p.IDs still
	// unpaid (status closed, close_reason p.Reason, updated_at p.Now,
	// version plus one, as SetOrder stores a close), and returns how many
	// it changed. The caller holds them (OrdersDue, Order) and has
	// decided each one's close.
	CloseOrders(ctx context.Context, p CloseOrdersParams) (int64, error)
	// OpenOrderPage reads up to p.Limit unpaid orders after (p.At,
	// p.After), by deadline then ID.
	OpenOrderPage(ctx context.Context, p PageParams) ([]order.Order, error)
	// FinishedOrderPage reads up to p.Limit paid and closed orders with
	// an ID after p.After, by ID in byte order.
	FinishedOrderPage(ctx context.Context, p PageParams) ([]order.Order, error)

	// Due work: drains, group timers and shard leases.

	// ExpireDue moves up to p.Limit unused coupons of p's shards with
	// expires_at at or before p.Now to expired, oldest due first, and
	// returns them in that order, each with its ID, template, user and
	// expires_at (rows another transaction holds are skipped). A backend
	// with one writer may stop early for a user's write. PostgreSQL takes
	// the leased shards a run of consecutive shards at a time: past
	// p.Limit, an earlier run's rows go before older ones of a later run.
	ExpireDue(ctx context.Context, p storetype.DueParams) ([]coupon.Coupon, error)
	// LocksDue reads up to p.Limit locked coupons of p's shards whose
	// locked_until is at or before p.Now, oldest due first, holding them
	// in a transaction (rows another transaction holds are skipped).
	LocksDue(ctx context.Context, p storetype.DueParams) ([]coupon.Coupon, error)
	// OrdersDue reads up to p.Limit unpaid orders of p's shards (all if
	// none) past their deadline at p.Now, earliest first, holding them in
	// a transaction (rows another transaction holds are skipped).
	OrdersDue(ctx context.Context, p storetype.DueParams) ([]order.Order, error)
	// NextDue reads the earliest due time of kind p.Kind's pending work
	// in the shards of p.Leases (all if none): zero if none is pending.
	NextDue(ctx context.Context, p NextDueParams) (time.Time, error)
	// PendingFrom reads the earliest due time at or after p.From of kind
	// p.Kind's pending work (unused coupons by expires_at, locked ones by
	// locked_until, in every shard; unpaid orders by deadline, in the
	// shards of p.Leases, all if none); zero if none.
	PendingFrom(ctx context.Context, p PendingFromParams) (time.Time, error)
	// LockedPage reads up to p.Limit locked coupons after (p.At,
	// p.After), by locked_until then ID.
	LockedPage(ctx context.Context, p PageParams) ([]coupon.Coupon, error)
	// PutTimer makes sure the group timer tm exists.
	PutTimer(ctx context.Context, tm storetype.Timer) error
	// Timers reads the group timers due at or before p.Before.
	Timers(ctx context.Context, p storetype.TimersParams) ([]storetype.Timer, error)
	// HasTimer reports whether the group timer tm (its Due a bucket's
	// start) is stored.
	HasTimer(ctx context.Context, tm storetype.Timer) (bool, error)
	// DeleteTimers removes the group timers of kind p.Kind whose whole
	// bucket lies at or before p.Through.
	DeleteTimers(ctx context.Context, p DeleteTimersParams) error
	// Forecast counts the items due in each bucket of p, by kind (see
	// store.DB.Forecast), leaving out empty buckets.
	Forecast(ctx context.Context, p storetype.ForecastParams) ([]storetype.DueCount, error)
	// Stats reads the gauges of storetype.Stats at now.
	Stats(ctx context.Context, now time.Time) (storetype.Stats, error)
	// Clock reads the database's clock.
	Clock(ctx context.Context) (time.Time, error)

	// Instances and the shard leases they hold.

	// SeenInstance records that p.Holder is alive now and, with
	// p.Measured, its clock skew p.Skew against the database's now.
	SeenInstance(ctx context.Context, p SeenInstanceParams) error
	// ForgetInstances forgets instances unseen for longer than d.
	ForgetInstances(ctx context.Context, d time.Duration) error
	// Instances reads the instances seen within d of the database's now,
	// by name in byte order.
	Instances(ctx context.Context, d time.Duration) ([]storetype.Instance, error)
	// LockLeases reads p.Holder's unexpired leases of p.Shards and keeps
	// them from changing hands until the transaction ends.
	LockLeases(ctx context.Context, p LeaseParams) ([]storetype.Lease, error)
	// RenewLeases extends p.Holder's unexpired leases to p.TTL from now.
	RenewLeases(ctx context.Context, p LeaseParams) ([]storetype.Lease, error)
	// DropLeases frees p.Holder's leases of p.Shards.
	DropLeases(ctx context.Context, p LeaseParams) error
	// TakeLeases takes up to p.N free or expired shards for p.Holder,
	// each under a new token, for p.TTL.
	TakeLeases(ctx context.Context, p LeaseParams) ([]storetype.Lease, error)
	// ShardLeases reads every shard's lease, by shard.
	ShardLeases(ctx context.Context) ([]storetype.ShardLease, error)

	// Tokens.

	// InsertToken stores a new token; false if one of its name exists.
	InsertToken(ctx context.Context, tk storetype.Token) (bool, error)
	// RevokeToken sets token p.Name's revoked_at to p.Now unless it is
	// already set.
	RevokeToken(ctx context.Context, p RevokeTokenParams) error
	// Token reads one token.
	Token(ctx context.Context, name string) (storetype.Token, error)
	// Tokens reads every token, by name.
	Tokens(ctx context.Context) ([]storetype.Token, error)

	// The outbox and its sinks.

	// EventStored reports whether the outbox holds a record whose ID is
	// id, and in a transaction keeps a concurrent one from storing one
	// until it ends where the database can (else its commit fails on the
	// ID, worth running again).
	EventStored(ctx context.Context, id string) (bool, error)
	// Records calls p.Each, in feed order, with the outbox records that
	// hold the events at positions p.After+1 … p.After+p.Limit (or, when
	// the feed's front is past p.After, as many from the front) until it
	// returns false. A driver that hands out positions after the commit
	// (see storetype.Record) gives positions to what has committed first.
	Records(ctx context.Context, p RecordsParams) error
	// FeedEnd reads the last position the feed has handed out, one row
	// read, after giving positions, as Records does, to what has
	// committed without one: every event committed before the call is
	// at or before it. It only grows, and a position is handed out
	// before any read of Records can answer it, so every cursor a page
	// of the feed ever answered is at or before FeedEnd read after it.
	FeedEnd(ctx context.Context) (int64, error)
	// FrontRecords reads the first limit records of the feed, without
	// their bodies.
	FrontRecords(ctx context.Context, limit int) ([]storetype.Record, error)
	// PruneEvents deletes the records whose last position is at or
	// before through and returns how many events they held.
	PruneEvents(ctx context.Context, through int64) (int64, error)
	// SinkState reads what is stored of a sink.
	SinkState(ctx context.Context, sink string) (storetype.SinkState, error)
	// AdvanceSink stores a sink's new position, its new dead letters and
	// the removal of those a replay delivered.
	AdvanceSink(ctx context.Context, p storetype.AdvanceSinkParams) error
	// DeadLetters reads a sink's dead letters.
	DeadLetters(ctx context.Context, p storetype.DeadLettersParams) ([]storetype.DeadLetter, error)
	// ReplayDeadLetters queues a sink's dead letters for redelivery and
	// returns how many.
	ReplayDeadLetters(ctx context.Context, sink string) (int64, error)

	// The archive.

	// ArchiveCoupons moves up to p.Limit terminal coupons (used, expired,
	// voided) last changed at or before p.Before to the archive, with p.Now
	// as their archived_at, deletes the record of the reminders they had
	// (they are never reminded again), and returns how many it moved. Rows
	// another transaction holds are skipped. A batch has no order (MySQL
	// walks its (status, updated_at) index): every such coupon goes in
	// some batch.
	ArchiveCoupons(ctx context.Context, p MoveParams) (int64, error)
	// ArchiveOrders moves up to p.Limit paid or closed orders last
	// changed at or before p.Before, as ArchiveCoupons does coupons.
	ArchiveOrders(ctx context.Context, p MoveParams) (int64, error)
	// PruneReminders deletes up to p.Limit sent or dropped reminders done
	// at or before p.Before and returns how many.
	PruneReminders(ctx context.Context, p storetype.PruneRequestsParams) (int64, error)
	// Archivable counts the coupons and orders ArchiveCoupons and
	// ArchiveOrders would move at p.Move (whatever its Limit), and the
	// reminders PruneReminders would delete done at or before
	// p.Reminders.
	Archivable(ctx context.Context, p ArchivableParams) (storetype.Archived, error)

	// Users and the reminders planned for them.

	// User reads a user; ErrNotFound if lapse has not met them.
	User(ctx context.Context, id string) (remind.User, error)
	// PutUser stores u's timezone and channels, keeping their last
	// activity, and returns the user as stored.
	PutUser(ctx context.Context, u remind.User) (remind.User, error)
	// TouchUser records that user p.ID acted at p.Now, creating them
	// with the default profile (timezone UTC, no channels) if new; a
	// user's last activity never moves back.
	TouchUser(ctx context.Context, p TouchUserParams) error
	// JoinableReminder returns the earliest planned reminder of p.User
	// and p.Lead whose first crossing lies in [p.Lo, p.Hi] and last
	// crossing at or before p.Hi; ErrNotFound if none.
	JoinableReminder(ctx context.Context, p JoinableReminderParams) (PlannedReminder, error)
	// InsertReminder stores r (its ID unset) as planned and returns its ID.
	InsertReminder(ctx context.Context, r PlannedReminder) (int64, error)
	// SetReminder stores r's First, Last and Due, if r is still planned.
	SetReminder(ctx context.Context, r PlannedReminder) error
	// Reminder reads reminder id (its First and Last may be unset).
	Reminder(ctx context.Context, id int64) (PlannedReminder, error)
	// UserReminders lists a user's planned reminders.
	UserReminders(ctx context.Context, user string) ([]PlannedReminder, error)
	// RemindersDue lists up to p.Limit planned reminders due at or before
	// p.Now, of the shards of p.Leases (all if none), earliest first,
	// holding them until the transaction ends where the backend has row
	// locks (another instance skips them or waits).
	RemindersDue(ctx context.Context, p storetype.DueParams) ([]PlannedReminder, error)
	// PlannedOrReminded reports whether the pair (coupon, lead) is in a
	// planned reminder or was reminded.
	PlannedOrReminded(ctx context.Context, p ReminderKey) (bool, error)
	// InsertReminderItem adds a coupon to a planned reminder.
	InsertReminderItem(ctx context.Context, it ReminderItem) error
	// UnplanCoupons takes the listed coupons out of every planned
	// reminder in one statement and returns those they were in (in any
	// order, a reminder once per coupon).
	UnplanCoupons(ctx context.Context, couponIDs []string) ([]int64, error)
	// ItemSpan reads how many coupons planned reminder id lists and
	// their earliest and latest expires_at (zero if none).
	ItemSpan(ctx context.Context, id int64) (ItemSpan, error)
	// ReminderCoupons reads the coupons planned reminder id lists, as
	// they are now, earliest expires_at first, then by ID.
	ReminderCoupons(ctx context.Context, id int64) ([]ReminderCoupon, error)
	// SentBetween counts the reminders sent to p.User with their done
	// time in [p.Start, p.End).
	SentBetween(ctx context.Context, p SentBetweenParams) (int, error)
	// InsertReminded records that the pair p.Key was reminded by
	// reminder p.ReminderID; the pair's key refuses a second record (an
	// error).
	InsertReminded(ctx context.Context, p RemindedParams) error
	// FinishReminder marks planned reminder f.ID sent or dropped at f.At
	// and deletes its items; false if it was no longer planned.
	FinishReminder(ctx context.Context, f FinishedReminder) (bool, error)

	// Bulk operations.

	// InsertOperation stores a new operation.
	InsertOperation(ctx context.Context, r OperationRow) error
	// Operation reads one operation, holding it in a transaction until
	// it ends.
	Operation(ctx context.Context, id string) (OperationRow, error)
	// SetOperation stores r over the operation of its ID.
	SetOperation(ctx context.Context, r OperationRow) error
	// Operations lists up to p.Limit operations with an ID before
	// p.Before, newest first, those of state p.State if it is set.
	Operations(ctx context.Context, p OperationsParams) ([]OperationRow, error)
	// OperationsDue lists up to p.Limit running operations that p.Holder
	// may take at p.Now: held by none, by p.Holder, or past their lease;
	// by ID.
	OperationsDue(ctx context.Context, p OperationsDueParams) ([]string, error)
	// CouponsAfter reads up to p.Limit coupons of template p.TemplateID
	// with an ID after p.After and at most p.Until, by ID in byte order,
	// holding them until the transaction ends.
	CouponsAfter(ctx context.Context, p CouponsAfterParams) ([]coupon.Coupon, error)
	// UsersCoupons reads the coupons users p.UserIDs hold with an ID at
	// most p.Until, in no order, holding them until the transaction ends.
	UsersCoupons(ctx context.Context, p UsersCouponsParams) ([]coupon.Coupon, error)
	// VoidCoupons voids, in one statement, those of coupons p.IDs that
	// are unused with expires_at after p.Now (status, order_id,
	// locked_until, updated_at and version as SetCoupon sets them), and
	// returns how many it changed.
	VoidCoupons(ctx context.Context, p VoidCouponsParams) (int64, error)
	// ExtendCoupons sets, in one statement, the expires_at of those of
	// p.IDs that are unused or locked, and returns how many it changed.
	ExtendCoupons(ctx context.Context, p ExtendCouponsParams) (int64, error)
	// PutPendingVoid marks a coupon to be voided when its lock ends,
	// unless it is marked.
	PutPendingVoid(ctx context.Context, p PendingVoid) error
	// PendingVoids returns which of coupons ids are marked to be voided
	// when their lock ends.
	PendingVoids(ctx context.Context, ids []string) ([]string, error)
	// TakePendingVoid removes and returns a coupon's mark, if it has one.
	TakePendingVoid(ctx context.Context, couponID string) (PendingVoid, bool, error)
}
