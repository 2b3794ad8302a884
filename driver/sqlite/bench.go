package sqlite

import (
	"context"
	"time"

	"github.com/lapsehq/lapse/driver"
	"github.com/lapsehq/lapse/order"
	"github.com/lapsehq/lapse/storetype"

	"github.com/lapsehq/lapse/driver/internal/sqlfile"
)

// NaiveExpire expires every due unused coupon in one statement on the
// writer, as the seeds do: no events, no counts. For `lapse bench` only.
func (s *Driver) NaiveExpire(ctx context.Context, now time.Time) (int64, error) {
	return s.execRaw(ctx, "NaiveExpire", ms(now))
}

// FloorExpire expires up to limit due unused coupons in one statement on
// the writer, with nothing else. For `lapse bench` only.
func (s *Driver) FloorExpire(ctx context.Context, now time.Time, limit int) (int64, error) {
	return s.execRaw(ctx, "FloorExpire", ms(now), limit)
}

func (s *Driver) execRaw(ctx context.Context, name string, args ...any) (int64, error) {
	res, err := s.stmts[name].ExecContext(ctx, args...)
	if err != nil {
		return 0, err
	}
	s.ckpt.committed()
	return res.RowsAffected()
}

// ExpiryLags returns updated_at minus expires_at of every expired coupon.
func (s *Driver) ExpiryLags(ctx context.Context) ([]time.Duration, error) {
	rows, err := s.reads().query(ctx, "ExpiryLags")
	return sqlfile.Collect(rows, err, sqlfile.ScanDurationIn(time.Millisecond))
}

// FloorOrder stores o and its event e, then takes o's one item from its
// SKU's available stock with a guarded UPDATE, in one plain transaction
// with nothing else (see sqlfile.FloorOrder). For `lapse bench orders
// --hot-sku` only.
func (s *Driver) FloorOrder(ctx context.Context, o order.Order, e storetype.Event) (bool, error) {
	return sqlfile.FloorOrder(ctx, s, o, func(t driver.ExecutorTx) error {
		_, err := t.(*tx).exec(ctx, "FloorEvent", e.ID, e.Type, e.Subject, ms(e.Time), string(e.Data))
		return err
	}, func(t driver.ExecutorTx) (bool, error) {
		return t.(*tx).execOne(ctx, "FloorTake", o.Items[0].SKU, o.Items[0].Qty)
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
