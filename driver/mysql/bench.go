package mysql

import (
	"context"
	"time"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/storetype"

	"github.com/lapsehq/lapse/driver/internal/sqlfile"
)

// NaiveExpire expires every due unused coupon in one statement, as the
// seeds do: no events, no counts. For `lapse bench` only.
func (s *Driver) NaiveExpire(ctx context.Context, now time.Time) (int64, error) {
	return s.execRaw(ctx, "NaiveExpire", now, now)
}

// FloorExpire expires up to limit due unused coupons in one statement,
// with nothing else. For `lapse bench` only.
func (s *Driver) FloorExpire(ctx context.Context, now time.Time, limit int) (int64, error) {
	return s.execRaw(ctx, "FloorExpire", now, now, limit)
}

// execRaw runs a raw drain on the engine pool, as lapse's drains run.
func (s *Driver) execRaw(ctx context.Context, name string, args ...any) (int64, error) {
	res, err := s.engine.ExecContext(ctx, queries.Get(name), args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// ExpiryLags returns updated_at minus expires_at of every expired coupon.
func (s *Driver) ExpiryLags(ctx context.Context) ([]time.Duration, error) {
	rows, err := s.onPool().query(ctx, "ExpiryLags")
	return sqlfile.Collect(rows, err, sqlfile.ScanDurationIn(time.Microsecond))
}

// FloorOrder stores o and its event e, then takes o's one item from its
// SKU's available stock with a guarded UPDATE, in one plain transaction
// with nothing else (see sqlfile.FloorOrder). For `lapse bench orders
// --hot-sku` only.
func (s *Driver) FloorOrder(ctx context.Context, o order.Order, e storetype.Event) (bool, error) {
	return sqlfile.FloorOrder(ctx, s, o, func(t driver.ExecutorTx) error {
		x := t.(*executor)
		if err := x.tx.flush(ctx); err != nil { // the order's row: a plain transaction sends each write alone
			return err
		}
		_, err := x.exec(ctx, "FloorEvent", e.ID, e.Type, e.Subject, e.Time, string(e.Data))
		return err
	}, func(t driver.ExecutorTx) (bool, error) {
		return t.(*executor).execOne(ctx, "FloorTake", o.Items[0].Qty, o.Items[0].SKU, o.Items[0].Qty)
	})
}

// Settle analyzes the coupons and flushes their dirty pages to disk, on
// one connection of the engine pool, which it leaves unlocked. For `lapse
// bench` only.
func (s *Driver) Settle(ctx context.Context) error {
	conn, err := s.engine.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	rows, err := conn.QueryContext(ctx, queries.Get("SettleAnalyze"))
	if err != nil {
		return err
	}
	if err := rows.Close(); err != nil {
		return err
	}
	if _, err := conn.ExecContext(ctx, queries.Get("SettleFlush")); err != nil {
		return err
	}
	_, err = conn.ExecContext(context.WithoutCancel(ctx), queries.Get("SettleUnlock"))
	return err
}

// FloorCloseOrders closes the unpaid orders due by now and gives back
// their coupons and units in one plain transaction (see
// sqlfile.FloorCloseOrders). For `lapse bench orders --storm` only.
func (s *Driver) FloorCloseOrders(ctx context.Context, now time.Time) (int64, error) {
	step := func(name string) func(driver.ExecutorTx) (int64, error) {
		return func(t driver.ExecutorTx) (int64, error) { return rowsAffected(t.(*executor).exec(ctx, name, now, now)) }
	}
	return sqlfile.FloorCloseOrders(ctx, s, step("FloorReleaseCoupons"), step("FloorReleaseStock"), step("FloorCloseOrders"))
}
