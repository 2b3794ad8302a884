-- Used by `lapse bench` only: the drains lapse is measured against.

-- name: NaiveExpire
-- The seeds' single UPDATE.
UPDATE coupons SET status = 'expired', updated_at = $1, version = version + 1
WHERE expires_at <= $1 AND status = 'unused';

-- name: FloorExpire
-- $1 now, $2 limit. A batch with no events, counts or row locks. Its
-- ORDER BY costs nothing (the partial index is in that order) and keeps
-- PostgreSQL on that index: without it, with most rows due, it plans a
-- sequential scan that re-reads every row already expired each batch, and
-- the floor falls to half of lapse's drain (1M storm here: 10k/s). The
-- outer status guard is what PostgreSQL rechecks on a row a racer changed
-- after the batch read it: without it, the floor expired a locked coupon.
UPDATE coupons SET status = 'expired', updated_at = $1, version = version + 1
WHERE id = ANY(ARRAY(
        SELECT id FROM coupons WHERE status = 'unused' AND expires_at <= $1
        ORDER BY expires_at LIMIT $2))
  AND status = 'unused';

-- name: ExpiryLags
SELECT updated_at - expires_at FROM coupons WHERE status = 'expired';

-- name: FloorEvent
-- The hot-SKU floor's event row.
INSERT INTO floor_events (id, type, subject, time, data) VALUES ($1, $2, $3, $4, $5::json);

-- name: FloorTake
-- $1 sku, $2 qty. The hot-SKU floor's guarded stock update, its last write.
UPDATE skus SET available = available - $2 WHERE sku = $1 AND available >= $2;

-- name: SettleVacuum
-- After a seed: what a store whose rows are old has had from autovacuum.
VACUUM (ANALYZE);

-- name: SettleCheckpoint
CHECKPOINT;

-- name: FloorReleaseCoupons
-- The order storm's floor, 1 of 3: $1 now; the coupons locked by the
-- unpaid orders due by now back to unused, nothing else.
UPDATE coupons SET status = 'unused', order_id = NULL, locked_until = NULL, updated_at = $1, version = version + 1
WHERE status = 'locked' AND order_id IN (SELECT id FROM orders WHERE status = 'unpaid' AND deadline <= $1);

-- name: FloorReleaseStock
-- 2 of 3: their units back to each SKU's bucket 0.
UPDATE skus s SET available = available + r.qty, reserved = reserved - r.qty, updated_at = $1
FROM (SELECT i ->> 'sku' AS sku, sum((i ->> 'qty')::bigint) AS qty
      FROM orders o, jsonb_array_elements(o.items) i WHERE o.status = 'unpaid' AND o.deadline <= $1 GROUP BY 1) r
WHERE s.sku = r.sku AND s.bucket = 0;

-- name: FloorCloseOrders
-- 3 of 3: the orders closed on timeout.
UPDATE orders SET status = 'closed', close_reason = 'timeout', updated_at = $1, version = version + 1
WHERE status = 'unpaid' AND deadline <= $1;
