package driver

import (
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/storetype"
)

// The params of the Executor's methods that take more than one value,
// each named for its method.

// TemplateInfoParams are the inputs of TemplateInfo.
type TemplateInfoParams struct {
	ID  string
	Now time.Time
}

// SetTemplateParams are the inputs of SetTemplate: the template as read,
// and as it is to be stored.
type SetTemplateParams struct {
	From, Next coupon.Template
}

// TakeIssuesParams are the inputs of TakeIssues.
type TakeIssuesParams struct {
	TemplateID string
	N          int64
}

// HeldCountsParams are the inputs of HeldCounts.
type HeldCountsParams struct {
	TemplateID string
	Users      []string
}

// CountParams are the inputs of Count.
type CountParams struct {
	TemplateID string
	State      coupon.State
	N          int64
}

// CouponParams are the inputs of Coupon: a coupon's ID, and whether to
// read the archive.
type CouponParams struct {
	ID       string
	Archived bool
}

// SetCouponParams are the inputs of SetCoupon: the coupon as read, and as
// it is to be stored.
type SetCouponParams struct {
	From, Next coupon.Coupon
}

// RequestParams are the inputs of PutRequest and FinishRequest.
type RequestParams struct {
	Key     string
	Request Request
}

// ForgetRequestParams are the inputs of ForgetRequest.
type ForgetRequestParams struct {
	Key    string
	Before time.Time
}

// NewStockParams are the inputs of NewStock.
type NewStockParams struct {
	SKU string
	Now time.Time
}

// PutStockBucketParams are the inputs of PutStockBucket.
type PutStockBucketParams struct {
	SKU    string
	Bucket StockBucket
	Now    time.Time
}

// DropStockBucketsParams are the inputs of DropStockBuckets.
type DropStockBucketsParams struct {
	SKU  string
	From int
}

// OrderParams are the inputs of Order: an order's ID, and whether to read
// the archive.
type OrderParams struct {
	ID       string
	Archived bool
}

// SetOrderParams are the inputs of SetOrder: the order as read, and as it
// is to be stored.
type SetOrderParams struct {
	From, Next order.Order
}

// CloseOrdersParams are the inputs of CloseOrders.
type CloseOrdersParams struct {
	IDs    []string
	Reason string
	Now    time.Time
}

// UnlockCouponsParams are the inputs of UnlockCoupons: the coupons, the
// state they move to (unused or expired) and when.
type UnlockCouponsParams struct {
	IDs []string
	To  coupon.State
	Now time.Time
}

// NextDueParams are the inputs of NextDue.
type NextDueParams struct {
	Kind   storetype.TimerKind
	Leases storetype.Leases
}

// PendingFromParams are the inputs of PendingFrom.
type PendingFromParams struct {
	Kind storetype.TimerKind
	From time.Time
	// Leases, if set, limit the read to their shards (orders only: the
	// reconciler reads coupons of every shard).
	Leases storetype.Leases
}

// DeleteTimersParams are the inputs of DeleteTimers.
type DeleteTimersParams struct {
	Kind    storetype.TimerKind
	Through time.Time
}

// SeenInstanceParams are the inputs of SeenInstance: Skew is stored only
// if Measured.
type SeenInstanceParams struct {
	Holder   string
	Skew     time.Duration
	Measured bool
}

// LeaseParams are the inputs of the lease methods: the holder, and what
// each method reads of Shards, TTL and N.
type LeaseParams struct {
	Holder string
	Shards []int
	TTL    time.Duration
	N      int
}

// RevokeTokenParams are the inputs of RevokeToken.
type RevokeTokenParams struct {
	Name string
	Now  time.Time
}

// RecordsParams are the inputs of Records: Each hears every record read
// until it returns false.
type RecordsParams struct {
	After int64
	Limit int
	Each  func(storetype.Record) bool
}

// ArchivableParams are the inputs of Archivable.
type ArchivableParams struct {
	Move      MoveParams
	Reminders time.Time
}

// TouchUserParams are the inputs of TouchUser.
type TouchUserParams struct {
	ID  string
	Now time.Time
}

// JoinableReminderParams are the inputs of JoinableReminder.
type JoinableReminderParams struct {
	User   string
	Lead   time.Duration
	Lo, Hi time.Time
}

// ReminderKey is a (coupon, lead) pair: reminded at most once.
type ReminderKey struct {
	CouponID string
	Lead     time.Duration
}

// ItemSpan is what ItemSpan reads of a planned reminder's coupons: how
// many, and their earliest and latest expires_at (zero if none).
type ItemSpan struct {
	N           int64
	First, Last time.Time
}

// SentBetweenParams are the inputs of SentBetween.
type SentBetweenParams struct {
	User       string
	Start, End time.Time
}

// RemindedParams are the inputs of InsertReminded.
type RemindedParams struct {
	Key        ReminderKey
	ReminderID int64
}

// OperationsDueParams are the inputs of OperationsDue.
type OperationsDueParams struct {
	Holder string
	Now    time.Time
	Limit  int
}

// UsersCouponsParams are the inputs of UsersCoupons.
type UsersCouponsParams struct {
	UserIDs []string
	Until   string
}

// VoidCouponsParams are the inputs of VoidCoupons.
type VoidCouponsParams struct {
	IDs []string
	Now time.Time
}
