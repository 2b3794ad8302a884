package mysql

import (
	"context"
	"time"
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

func (s *Driver) execRaw(ctx context.Context, name string, args ...any) (int64, error) {
	res, err := s.db.ExecContext(ctx, queries.Get(name), args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// ExpiryLags returns updated_at minus expires_at of every expired coupon.
func (s *Driver) ExpiryLags(ctx context.Context) ([]time.Duration, error) {
	rows, err := s.query(ctx, "ExpiryLags")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []time.Duration
	for rows.Next() {
		var lag int64
		if err := rows.Scan(&lag); err != nil {
			return nil, err
		}
		out = append(out, time.Duration(lag)*time.Microsecond)
	}
	return out, rows.Err()
}
