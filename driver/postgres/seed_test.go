package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// seed inserts n coupons of template tplID straight into the coupons
// table, in status, the i-th (from 1) expiring at expires + i*step. IDs
// carry prefix and follow insertion order, as claims' IDs follow claim
// time; user IDs are scrambled, as real claims arrive.
func seed(tb testing.TB, conn *pgx.Conn, prefix, tplID string, n int, status string, expires time.Time, step time.Duration) {
	tb.Helper()
	_, err := conn.Exec(context.Background(), `
		INSERT INTO coupons (id, template_id, user_id, status, claimed_at, expires_at, locked_until, order_id, updated_at, version)
		SELECT $1 || lpad(i::text, 10, '0'), $2, 'u' || ((i::bigint * 7919) % 1000003),
		       $3, $4::timestamptz - interval '1 day', $4::timestamptz + i * $6::interval,
		       CASE WHEN $3 = 'locked' THEN $4::timestamptz + i * $6::interval END,
		       CASE WHEN $3 IN ('locked', 'used') THEN 'o' || i END, $4::timestamptz - interval '1 day', 1
		FROM generate_series(1, $5::int) AS i`,
		prefix, tplID, status, expires, n, step)
	if err != nil {
		tb.Fatalf("seed %d %s coupons: %v", n, status, err)
	}
}
