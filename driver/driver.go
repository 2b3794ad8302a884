package driver

import (
	"context"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/remind"
	"github.com/lapsehq/lapse/storetype"
)

// Driver is one database as the service layer (DB) sees it: write
// transactions, the dialect's reads, and how its errors read. A backend
// package (driver/sqlite, driver/postgres, driver/mysql) implements it with
// its SQL, migrations and connection setup, and no business rule: DB
// decides every state change, count, stock move, reminder and idempotent
// replay once, over any Driver.
type Driver interface {
	// Begin starts one write transaction. background marks a drain or
	// issuance batch, which a backend with one writer holds back while a
	// user's write waits.
	Begin(ctx context.Context, background bool) (DriverTx, error)
	// Classify turns an error of a write transaction into what DB
	// returns (ErrNotFound, ErrRequestTaken and domain errors as they
	// are), and says whether the transaction is worth running again: the
	// database rolled it back to break a deadlock, say.
	Classify(err error) (out error, retry bool)
	// Busy reports whether a user's write waits for the writer; an
	// issuance batch or a bulk operation's batch then commits early. A
	// backend whose writers do not queue on one another answers false.
	Busy() bool

	// Template reads a template with its stored counts by state, and how
	// many of its unused coupons are past expires_at at now, in one
	// snapshot.
	Template(ctx context.Context, id string, now time.Time) (info storetype.TemplateInfo, dueUnused int64, err error)
	// Templates reads up to p.Limit templates with an ID after p.After,
	// by ID in byte order.
	Templates(ctx context.Context, p storetype.TemplatesParams) ([]coupon.Template, error)
	// Coupon reads one coupon as stored.
	Coupon(ctx context.Context, id string) (coupon.Coupon, error)
	// UserCoupons reads up to p.Limit of a user's coupons as stored with
	// an ID after p.After, by ID in byte order, those whose state the
	// lazy check reads at p.Now as p.StatusFilter() if that is set, and,
	// with p.Archived, archived coupons among them: a walk of an index
	// on (user_id, id) of each table that stops at p.Limit coupons.
	UserCoupons(ctx context.Context, p storetype.UserCouponsParams) ([]coupon.Coupon, error)
	// ArchivedCoupon reads one archived coupon.
	ArchivedCoupon(ctx context.Context, id string) (coupon.Coupon, error)
	// ArchivedOrder reads one archived order.
	ArchivedOrder(ctx context.Context, id string) (order.Order, error)
	// Archivable counts the coupons and orders ArchiveCoupons and
	// ArchiveOrders would move at p (whatever p.Limit), and the
	// reminders PruneReminders would delete done at or before reminders.
	Archivable(ctx context.Context, p MoveParams, reminders time.Time) (storetype.Archived, error)
	// SKU reads one SKU's counters.
	SKU(ctx context.Context, sku string) (storetype.SKU, error)
	// Order reads one order.
	Order(ctx context.Context, id string) (order.Order, error)
	// DueOrders lists up to p.Limit unpaid orders past their deadline at
	// p.Now, earliest first, and the first deadline after p.Now.
	DueOrders(ctx context.Context, p storetype.DueParams) (storetype.DueOrders, error)
	// Records calls each, in feed order, with the outbox records that
	// hold the events at positions after+1 … after+limit (or, when the
	// feed's front is past after, as many from the front) until it
	// returns false. A driver that hands out positions after the commit
	// (see Record) gives positions to what has committed first.
	Records(ctx context.Context, after int64, limit int, each func(storetype.Record) bool) error
	// FeedEnd reads the last position the feed has handed out, one row
	// read. It only grows, and a position is handed out before any read
	// of Records can answer it, so every cursor a page of the feed ever
	// answered is at or before FeedEnd read after it.
	FeedEnd(ctx context.Context) (int64, error)
	// Timers reads the group timers due at or before p.Before.
	Timers(ctx context.Context, p storetype.TimersParams) ([]storetype.Timer, error)
	// Stats reads the gauges of Stats.
	Stats(ctx context.Context, now time.Time) (storetype.Stats, error)
	// Forecast counts the items due in each bucket of p, by kind (see
	// DB.Forecast), leaving out empty buckets.
	Forecast(ctx context.Context, p storetype.ForecastParams) ([]storetype.DueCount, error)
	// ShardLeases reads every shard's lease, by shard.
	ShardLeases(ctx context.Context) ([]storetype.ShardLease, error)
	// Instances reads the instances seen within d of the database's now,
	// by name in byte order.
	Instances(ctx context.Context, d time.Duration) ([]storetype.Instance, error)
	// SinkState reads what is stored of a sink.
	SinkState(ctx context.Context, sink string) (storetype.SinkState, error)
	// DeadLetters reads a sink's dead letters.
	DeadLetters(ctx context.Context, p storetype.DeadLettersParams) ([]storetype.DeadLetter, error)
	// User reads a user's profile and last activity.
	User(ctx context.Context, id string) (remind.User, error)
	// Clock reads the database's clock.
	Clock(ctx context.Context) (time.Time, error)
	// Tokens reads every token, by name.
	Tokens(ctx context.Context) ([]storetype.Token, error)
	// Operation reads one bulk operation.
	Operation(ctx context.Context, id string) (OperationRow, error)
	// Ready reports whether the database answers and is migrated.
	Ready(ctx context.Context) error
	ReconcileReads
	// Close releases the connections.
	Close() error
}

// DriverTx is one write transaction of a Driver.
type DriverTx interface {
	Tx
	// Commit writes what the driver buffered and records, the
	// transaction's outbox records in order, and commits; it returns the
	// group timers the transaction wrote, for the hooks.
	Commit(records []storetype.Record) ([]storetype.Timer, error)
	// Rollback ends the transaction unless it committed.
	Rollback()
}
