package store

import (
	"context"
	"time"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/storetype"
)

// PutSKU sets a SKU's total stock and bucket count (see putSKUIn).
func (db *DB) PutSKU(ctx context.Context, p PutSKUParams) (storetype.SKU, error) {
	return mutateValid(ctx, db, p, nil, putSKUIn)
}

// SKU returns one SKU's counters, summed over its buckets.
func (db *DB) SKU(ctx context.Context, sku string) (storetype.SKU, error) {
	bs, err := read(ctx, db, func(x driver.Executor) ([]driver.StockBucket, error) { return x.StockBuckets(ctx, sku) })
	if err != nil {
		return storetype.SKU{}, err
	}
	if len(bs) == 0 {
		return storetype.SKU{}, storetype.ErrNotFound
	}
	return sumStock(sku, bs), nil
}

// CreateOrder reserves stock, locks coupons and stores the order.
func (db *DB) CreateOrder(ctx context.Context, p CreateOrderParams) (order.Order, error) {
	return mutateValid(ctx, db, p, p.Idem, createOrderIn)
}

// PayOrder pays an unpaid order, or records a late payment in a
// transaction of its own (see payOrderIn).
func (db *DB) PayOrder(ctx context.Context, p PayOrderParams) (order.Order, error) {
	return mutateValid(ctx, db, p, p.Idem, payOrderIn)
}

// CloseOrder closes an unpaid order for p.Reason.
func (db *DB) CloseOrder(ctx context.Context, p CloseOrderParams) (order.Order, error) {
	return mutateValid(ctx, db, p, p.Idem, closeOrderIn)
}

// DueOrders lists unpaid orders of the shards of p.Leases (all if none)
// past their deadline, holding none, and the first deadline of those
// shards after p.Now.
func (db *DB) DueOrders(ctx context.Context, p storetype.DueParams) (storetype.DueOrders, error) {
	return read(ctx, db, func(x driver.Executor) (storetype.DueOrders, error) {
		var (
			d   storetype.DueOrders
			err error
		)
		if d.Orders, err = x.OrdersDue(ctx, p); err != nil {
			return d, err
		}
		d.Next, err = x.PendingFrom(ctx, driver.PendingFromParams{Kind: storetype.TimerClose, From: p.Now.Add(time.Millisecond), Leases: p.Leases})
		return d, err
	})
}
