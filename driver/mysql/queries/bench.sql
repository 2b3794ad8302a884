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
