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
