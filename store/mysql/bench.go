package mysql

import (
	"context"
	"time"

	"github.com/lapsehq/lapse/store/sqlfile"
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
	rows, err := s.query(ctx, "ExpiryLags")
	return sqlfile.Collect(rows, err, func(row sqlfile.Scanner) (time.Duration, error) {
		var lag int64
		err := row.Scan(&lag)
		return time.Duration(lag) * time.Microsecond, err
	})
}
