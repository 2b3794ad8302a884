-- Used by `lapse bench` only: the drains lapse is measured against.

-- name: NaiveExpire
-- now, now. The seeds' single UPDATE.
UPDATE coupons SET status = 'expired', updated_at = ?, version = version + 1
WHERE expires_at <= ? AND status = 'unused';

-- name: FloorExpire
-- now, now, limit. A batch with no events, counts, row claims or
-- ordering: a single-table UPDATE … LIMIT, which MySQL and MariaDB take
-- as it is.
UPDATE coupons SET status = 'expired', updated_at = ?, version = version + 1
WHERE status = 'unused' AND expires_at <= ?
LIMIT ?;

-- name: ExpiryLags
-- In microseconds.
SELECT TIMESTAMPDIFF(MICROSECOND, expires_at, updated_at) FROM coupons WHERE status = 'expired';

-- name: FloorEvent
-- The hot-SKU floor's event row.
INSERT INTO floor_events (id, type, subject, time, data) VALUES (?, ?, ?, ?, ?);

-- name: FloorTake
-- qty, sku, qty. The hot-SKU floor's guarded stock update, its last write.
UPDATE skus SET available = available - ? WHERE sku = ? AND available >= ?;

-- name: SettleAnalyze
-- After a seed: the coupons' statistics, then their dirty pages flushed
-- to the tablespace (FOR EXPORT flushes them and holds a read lock, which
-- SettleUnlock lets go).
ANALYZE TABLE coupons;

-- name: SettleFlush
FLUSH TABLES coupons FOR EXPORT;

-- name: SettleUnlock
UNLOCK TABLES;

-- name: FloorReleaseCoupons
-- The order storm's floor, 1 of 3: now, now; the coupons locked by the
-- unpaid orders due by now back to unused, nothing else.
UPDATE coupons SET status = 'unused', order_id = NULL, locked_until = NULL, updated_at = ?, version = version + 1
WHERE status = 'locked' AND order_id IN (SELECT id FROM orders WHERE status = 'unpaid' AND deadline <= ?);

-- name: FloorReleaseStock
-- 2 of 3: now, now; their units back to each SKU's bucket 0.
UPDATE skus s JOIN (
    SELECT i.sku, SUM(i.qty) AS qty
    FROM orders o, JSON_TABLE(o.items, '$[*]' COLUMNS (sku VARCHAR(1020) PATH '$.sku', qty BIGINT PATH '$.qty')) i
    WHERE o.status = 'unpaid' AND o.deadline <= ? GROUP BY i.sku) r ON s.sku = r.sku AND s.bucket = 0
SET s.available = s.available + r.qty, s.reserved = s.reserved - r.qty, s.updated_at = ?;

-- name: FloorCloseOrders
-- 3 of 3: now, now; the orders closed on timeout.
UPDATE orders SET status = 'closed', close_reason = 'timeout', updated_at = ?, version = version + 1
WHERE status = 'unpaid' AND deadline <= ?;
