package sqlfile

import (
	"context"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/order"
)

// FloorOrder runs, in a transaction of d, the plain transaction `lapse bench orders
// --hot-sku` measures CreateOrder against, with what the driver writes
// for it: o's row, then event (its event row), then take (the guarded
// update that takes o's items from the stock) last, and commits; false,
// and rolled back, if take changed nothing. For the bench only.
func FloorOrder(ctx context.Context, d driver.Driver, o order.Order, event func(driver.ExecutorTx) error, take func(driver.ExecutorTx) (bool, error)) (bool, error) {
	t, err := d.Begin(ctx, false)
	if err != nil {
		return false, err
	}
	defer t.Rollback()
	if err := t.InsertOrder(ctx, o); err != nil {
		return false, err
	}
	if err := event(t); err != nil {
		return false, err
	}
	if ok, err := take(t); err != nil || !ok {
		return false, err
	}
	_, err = t.Commit(ctx, nil)
	return err == nil, err
}

// FloorCloseOrders runs, in one transaction of d, the plain statements
// `lapse bench orders --storm` measures lapse's close of an order storm
// against, steps (give back the coupons, the units, close the orders:
// no events, no counts), and commits; it returns what the last step
// changed. For the bench only.
func FloorCloseOrders(ctx context.Context, d driver.Driver, steps ...func(driver.ExecutorTx) (int64, error)) (int64, error) {
	t, err := d.Begin(ctx, true)
	if err != nil {
		return 0, err
	}
	defer t.Rollback()
	var n int64
	for _, step := range steps {
		if n, err = step(t); err != nil {
			return 0, err
		}
	}
	_, err = t.Commit(ctx, nil)
	return n, err
}
