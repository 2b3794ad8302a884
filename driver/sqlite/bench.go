package sqlite

import (
	"context"
	"time"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/storetype"

	"github.com/lapsehq/lapse/driver/internal/sqlfile"
	"github.com/lapsehq/lapse/driver/sqlite/internal/dbsqlc"
)

// NaiveExpire expires every due unused coupon in one statement on the
// writer, as the seeds do: no events, no counts. For `lapse bench` only.
func (s *Driver) NaiveExpire(ctx context.Context, now time.Time) (int64, error) {
	return s.wrote(s.sqlc.NaiveExpire(ctx, ms(now)))
}

// FloorExpire expires up to limit due unused coupons in one statement on
// the writer, with nothing else. For `lapse bench` only.
func (s *Driver) FloorExpire(ctx context.Context, now time.Time, limit int) (int64, error) {
	return s.wrote(s.sqlc.FloorExpire(ctx, dbsqlc.FloorExpireParams{Now: ms(now), PageSize: int64(limit)}))
}

// wrote returns what a write on the writer outside a transaction
// returned, once the checkpointer knows of it.
func (s *Driver) wrote(n int64, err error) (int64, error) {
	if err != nil {
		return 0, err
	}
	s.ckpt.committed()
	return n, nil
}

// ExpiryLags returns updated_at minus expires_at of every expired coupon.
func (s *Driver) ExpiryLags(ctx context.Context) ([]time.Duration, error) {
	lags, err := s.reads().q().ExpiryLags(ctx)
	return sqlfile.Convert(lags, err, func(lag int64) (time.Duration, error) { return time.Duration(lag) * time.Millisecond, nil })
}

// FloorOrder stores o and its event e, then takes o's one item from its
// SKU's available stock with a guarded UPDATE, in one plain transaction
// with nothing else (see sqlfile.FloorOrder). For `lapse bench orders
// --hot-sku` only.
func (s *Driver) FloorOrder(ctx context.Context, o order.Order, e storetype.Event) (bool, error) {
	return sqlfile.FloorOrder(ctx, s, o, func(t driver.ExecutorTx) error {
		return t.(*tx).q().FloorEvent(ctx, dbsqlc.FloorEventParams{
			ID: e.ID, Type: e.Type, Subject: e.Subject, Time: ms(e.Time), Data: string(e.Data),
		})
	}, func(t driver.ExecutorTx) (bool, error) {
		n, err := t.(*tx).q().FloorTake(ctx, dbsqlc.FloorTakeParams{Sku: o.Items[0].SKU, Qty: o.Items[0].Qty})
		return n > 0, err
	})
}

// Settle copies the whole WAL into the database file and truncates it,
// on the writer, trying again while a reader or the checkpointer stops it
// short. For `lapse bench` only.
func (s *Driver) Settle(ctx context.Context) error {
	for {
		var busy, log, copied int
		if err := s.stmts["Settle"].QueryRowContext(ctx).Scan(&busy, &log, &copied); err != nil || busy == 0 {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(checkpointEvery):
		}
	}
}

// FloorCloseOrders closes the unpaid orders due by now and gives back
// their coupons and units in one plain transaction (see
// sqlfile.FloorCloseOrders). For `lapse bench orders --storm` only.
func (s *Driver) FloorCloseOrders(ctx context.Context, now time.Time) (int64, error) {
	step := func(name string) func(driver.ExecutorTx) (int64, error) {
		return func(t driver.ExecutorTx) (int64, error) { return t.(*tx).execCount(ctx, name, ms(now)) }
	}
	return sqlfile.FloorCloseOrders(ctx, s, step("FloorReleaseCoupons"), step("FloorReleaseStock"), step("FloorCloseOrders"))
}
