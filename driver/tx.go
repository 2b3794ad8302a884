package driver

import (
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/storetype"
)

// Tx is one write transaction of a driver, as DB's rules see it: each
// method is one statement of the driver's own SQL (or a write it buffers
// until its commit), or the dialect's drain of one kind of due work.
//
// A read of a coupon, an order or a SKU holds that row until the
// transaction ends, where the backend has row locks, so that what a
// transition decides on cannot change under it. A missing row is
// ErrNotFound.
type Tx interface {
	// Template reads a template.
	Template(id string) (coupon.Template, error)
	// ClaimTemplate reads a template that is being claimed from: claims
	// of one template queue here, so that each checks the per-user limit
	// and the total on what the previous one committed.
	ClaimTemplate(id string) (coupon.Template, error)
	// CountUserCoupons counts a user's coupons of a template, archived
	// ones too.
	CountUserCoupons(userID, templateID string) (int64, error)
	// IssuedCount reads how many coupons of a template are issued.
	IssuedCount(templateID string) (int64, error)
	// TakeIssues counts n more coupons of a template issued; false if that
	// would pass its total.
	TakeIssues(templateID string, n int64) (bool, error)
	// HeldCounts returns how many coupons of a template each of users
	// holds, archived ones too; a user it leaves out holds none.
	HeldCounts(templateID string, users []string) (map[string]int64, error)
	// ExistingCoupons returns which of ids name a stored coupon, archived
	// or not.
	ExistingCoupons(ids []string) (map[string]bool, error)
	// InsertClaimed stores new unused coupons of one template, all claimed
	// at one instant.
	InsertClaimed(cs []coupon.Coupon) error
	// Coupon reads one coupon.
	Coupon(id string) (coupon.Coupon, error)
	// SetCoupon stores next over from, unless the stored coupon has left
	// from's state and version: a compare-and-set; false if it changed
	// nothing.
	SetCoupon(from, next coupon.Coupon) (bool, error)
	// Count moves n coupons of a template into a state (n < 0: out of it).
	Count(templateID string, st coupon.State, n int64) error
	// PutTimer makes sure the group timer tm exists.
	PutTimer(tm storetype.Timer) error
	// EventStored reports whether the outbox holds a record whose ID is
	// id, and keeps a concurrent transaction from storing one until this
	// one ends where the database can (else its commit fails on the ID,
	// worth running again).
	EventStored(id string) (bool, error)

	// Request reads the request recorded under an idempotency key.
	Request(key string) (Request, error)
	// PutRequest records r under key; ErrRequestTaken if a concurrent
	// transaction recorded a request under it first.
	PutRequest(key string, r Request) error
	// ForgetRequest deletes the request recorded under key if it was
	// created at or before before: it expired.
	ForgetRequest(key string, before time.Time) error
	// FinishRequest stores the response of the request in flight under
	// key: r's status and body.
	FinishRequest(key string, r Request) error

	// StockBuckets reads every bucket of a SKU, in bucket order, and
	// holds them until the transaction ends; none if the SKU is unknown.
	// On PostgreSQL it may miss buckets a PutSKU it waited for inserted
	// (see lockStock).
	StockBuckets(sku string) ([]StockBucket, error)
	// AddStock adds d's amounts to one bucket of a SKU, unless the bucket
	// is missing, the SKU's bucket count is not d.Buckets or the bucket's
	// available would go negative; false if it changed nothing.
	AddStock(d StockDelta) (bool, error)
	// NewStock stores a new SKU of one empty bucket, unless the SKU exists
	// (one a concurrent transaction is creating is waited for).
	NewStock(sku string, now time.Time) error
	// PutStockBucket stores one bucket of a SKU, its counters and count,
	// whether the bucket exists or not.
	PutStockBucket(sku string, b StockBucket, now time.Time) error
	// DropStockBuckets deletes a SKU's buckets numbered from on.
	DropStockBuckets(sku string, from int) error
	// InsertOrder stores a new unpaid order.
	InsertOrder(o order.Order) error
	// Order reads one order.
	Order(id string) (order.Order, error)
	// SetOrder stores next's status, close reason, payment and update time
	// over from, unless the stored order has left unpaid or from's
	// version: a compare-and-set; false if it changed nothing.
	SetOrder(from, next order.Order) (bool, error)

	// InsertTemplate stores a new template.
	InsertTemplate(tp coupon.Template) error
	// SetTemplate stores next's name, value, total, reminders and
	// closed_at over from, with from's version plus one, unless the
	// stored template has left from's version or has issued more coupons
	// than next's total allows: a compare-and-set; false if it changed
	// nothing.
	SetTemplate(from, next coupon.Template) (bool, error)

	// InsertToken stores a new token; false if one of its name exists.
	InsertToken(tk storetype.Token) (bool, error)
	// RevokeToken sets the named token's revoked_at to now unless it is
	// already set.
	RevokeToken(name string, now time.Time) error
	// Token reads one token.
	Token(name string) (storetype.Token, error)

	// ExpireDue moves up to p.Limit unused coupons of p's shards with
	// expires_at at or before p.Now to expired, oldest due first, and
	// returns them in that order, each with its ID, template, user and
	// expires_at (rows another transaction holds are skipped). A backend
	// with one writer may stop early for a user's write. PostgreSQL takes
	// the leased shards a run of consecutive shards at a time: past
	// p.Limit, an earlier run's rows go before older ones of a later run.
	ExpireDue(p storetype.DueParams) ([]coupon.Coupon, error)
	// LocksDue reads up to p.Limit locked coupons of p's shards whose
	// locked_until is at or before p.Now, oldest due first, holding them
	// (rows another transaction holds are skipped).
	LocksDue(p storetype.DueParams) ([]coupon.Coupon, error)
	// OrdersDue reads up to p.Limit unpaid orders of p's shards past their
	// deadline at p.Now, earliest first, holding them (rows another
	// transaction holds are skipped).
	OrdersDue(p storetype.DueParams) ([]order.Order, error)
	// NextDue reads the earliest due time of kind's pending work in the
	// shards of ls (all if none): zero if none is pending.
	NextDue(kind storetype.TimerKind, ls storetype.Leases) (time.Time, error)
	// LockLeases reads holder's unexpired leases of shards and keeps them
	// from changing hands until the transaction ends.
	LockLeases(holder string, shards []int) ([]storetype.Lease, error)
	// DeleteTimers removes the group timers of kind whose whole bucket lies
	// at or before through.
	DeleteTimers(kind storetype.TimerKind, through time.Time) error

	// PruneRequests deletes up to p.Limit requests recorded at or before
	// p.Before, oldest first, and returns how many.
	PruneRequests(p storetype.PruneRequestsParams) (int64, error)
	// ArchiveCoupons moves up to p.Limit terminal coupons (used, expired,
	// voided) last changed at or before p.Before to the archive, with p.Now
	// as their archived_at, deletes the record of the reminders they had
	// (they are never reminded again), and returns how many it moved. Rows
	// another transaction holds are skipped. A batch has no order (MySQL
	// walks its (status, updated_at) index): every such coupon goes in
	// some batch.
	ArchiveCoupons(p MoveParams) (int64, error)
	// ArchiveOrders moves up to p.Limit paid or closed orders last
	// changed at or before p.Before, as ArchiveCoupons does coupons.
	ArchiveOrders(p MoveParams) (int64, error)
	// PruneReminders deletes up to p.Limit sent or dropped reminders done
	// at or before p.Before and returns how many.
	PruneReminders(p storetype.PruneRequestsParams) (int64, error)
	// FrontRecords reads the first limit records of the feed, without
	// their bodies.
	FrontRecords(limit int) ([]storetype.Record, error)
	// PruneEvents deletes the records whose last position is at or
	// before through and returns how many events they held.
	PruneEvents(through int64) (int64, error)
	// AdvanceSink stores a sink's new position, its new dead letters and
	// the removal of those a replay delivered.
	AdvanceSink(p storetype.AdvanceSinkParams) error
	// ReplayDeadLetters queues a sink's dead letters for redelivery and
	// returns how many.
	ReplayDeadLetters(sink string) (int64, error)

	LeaseTx
	ReminderTx
	OperationTx
}
