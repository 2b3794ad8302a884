package sqlite

import (
	"context"
	"time"

	"github.com/lapsehq/lapse/store/sqlfile"
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
	rows, err := s.read(ctx, "ExpiryLags")
	return sqlfile.Collect(rows, err, func(row sqlfile.Scanner) (time.Duration, error) {
		var lag int64
		err := row.Scan(&lag)
		return time.Duration(lag) * time.Millisecond, err
	})
}
