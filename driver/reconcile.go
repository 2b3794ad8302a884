package driver

import (
	"context"
	"time"

	"github.com/lapsehq/lapse/coupon"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/storetype"
)

// ReconcileReads are the driver's reads reconciliation pages through.
type ReconcileReads interface {
	// StockPage reads the sums of up to p.Limit SKUs with a SKU after
	// p.After, by SKU in byte order, with the stock last put.
	StockPage(ctx context.Context, p PageParams) ([]StockSum, error)
	// OpenOrderPage reads up to p.Limit unpaid orders after (p.At,
	// p.After), by deadline then ID.
	OpenOrderPage(ctx context.Context, p PageParams) ([]order.Order, error)
	// FinishedOrderPage reads up to p.Limit paid and closed orders with
	// an ID after p.After, by ID in byte order.
	FinishedOrderPage(ctx context.Context, p PageParams) ([]order.Order, error)
	// LockedPage reads up to p.Limit locked coupons after (p.At,
	// p.After), by locked_until then ID.
	LockedPage(ctx context.Context, p PageParams) ([]coupon.Coupon, error)
	// PendingFrom reads the earliest due time at or after from of kind's
	// pending coupons (unused by expires_at, locked by locked_until);
	// zero if none.
	PendingFrom(ctx context.Context, kind storetype.TimerKind, from time.Time) (time.Time, error)
	// HasTimer reports whether the group timer tm (its Due a bucket's
	// start) is stored.
	HasTimer(ctx context.Context, tm storetype.Timer) (bool, error)
}

// PageParams are one page of a read by key: after the key (At, After)
// (At unused where the key is After alone), up to Limit rows.
type PageParams struct {
	At    time.Time
	After string
	Limit int
}

// StockSum is a SKU's counters summed over its buckets, with the stock
// last put.
type StockSum struct {
	storetype.SKU
	Stock int64
}
