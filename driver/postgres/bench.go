package postgres

import (
	"context"
	"time"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/storetype"

	"github.com/jackc/pgx/v5"
)

// NaiveExpire expires every due unused coupon in one statement, as the
// seeds do: no events, no counts. It runs on the engine pool, as
// lapse's drains do. For `lapse bench` only.
func (s *Driver) NaiveExpire(ctx context.Context, now time.Time) (int64, error) {
	tag, err := s.engine.Exec(ctx, queries.Get("NaiveExpire"), now)
	return tag.RowsAffected(), err
}

// FloorExpire expires up to limit due unused coupons in one statement,
// with nothing else, on the engine pool. For `lapse bench` only.
func (s *Driver) FloorExpire(ctx context.Context, now time.Time, limit int) (int64, error) {
	tag, err := s.engine.Exec(ctx, queries.Get("FloorExpire"), now, limit)
	return tag.RowsAffected(), err
}

// ExpiryLags returns updated_at minus expires_at of every expired coupon.
func (s *Driver) ExpiryLags(ctx context.Context) ([]time.Duration, error) {
	rows, err := s.reads.Query(ctx, queries.Get("ExpiryLags"))
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[time.Duration])
}

// FloorOrder stores o and its event e, then takes o's one item from its
// SKU's available stock with a guarded UPDATE, in one plain transaction
// with nothing else (see sqlfile.FloorOrder). For `lapse bench orders
// --hot-sku` only.
func (s *Driver) FloorOrder(ctx context.Context, o order.Order, e storetype.Event) (bool, error) {
	return sqlfile.FloorOrder(ctx, s, o, func(t driver.ExecutorTx) error {
		_, err := t.(*executor).exec(ctx, "FloorEvent", e.ID, e.Type, e.Subject, e.Time, string(e.Data))
		return err
	}, func(t driver.ExecutorTx) (bool, error) {
		return t.(*executor).execOne(ctx, "FloorTake", o.Items[0].SKU, o.Items[0].Qty)
	})
}

// Settle vacuums and analyzes the database, setting the hint bits and the
// visibility map a seed leaves for its first readers, then checkpoints.
// For `lapse bench` only.
func (s *Driver) Settle(ctx context.Context) error {
	for _, name := range []string{"SettleVacuum", "SettleCheckpoint"} {
		if _, err := s.engine.Exec(ctx, queries.Get(name)); err != nil {
			return err
		}
	}
	return nil
}

// FloorCloseOrders closes the unpaid orders due by now and gives back
// their coupons and units in one plain transaction (see
// sqlfile.FloorCloseOrders). For `lapse bench orders --storm` only.
func (s *Driver) FloorCloseOrders(ctx context.Context, now time.Time) (int64, error) {
	step := func(name string) func(driver.ExecutorTx) (int64, error) {
		return func(t driver.ExecutorTx) (int64, error) { return t.(*executor).execCount(ctx, name, now) }
	}
	return sqlfile.FloorCloseOrders(ctx, s, step("FloorReleaseCoupons"), step("FloorReleaseStock"), step("FloorCloseOrders"))
}
