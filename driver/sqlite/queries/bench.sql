-- Used by `lapse bench` only: the drains lapse is measured against.

-- name: NaiveExpire
-- The seeds' single UPDATE.
UPDATE coupons SET status = 'expired', updated_at = ?1, version = version + 1
WHERE expires_at <= ?1 AND status = 'unused';

-- name: FloorExpire
-- ?1 now, ?2 limit. A batch with no events, counts or ordering.
UPDATE coupons SET status = 'expired', updated_at = ?1, version = version + 1
WHERE rowid IN (
    SELECT rowid FROM coupons WHERE status = 'unused' AND expires_at <= ?1 LIMIT ?2);

-- name: ExpiryLags
SELECT updated_at - expires_at FROM coupons WHERE status = 'expired';

-- name: FloorEvent
-- The hot-SKU floor's event row.
INSERT INTO floor_events (id, type, subject, time, data) VALUES (?, ?, ?, ?, ?);

-- name: FloorTake
-- ?1 sku, ?2 qty. The hot-SKU floor's guarded stock update, its last write.
UPDATE skus SET available = available - ?2 WHERE sku = ?1 AND available >= ?2;

-- name: Settle
-- After a seed: the whole WAL copied into the database file and the WAL
-- truncated; busy is 1 if a reader or the checkpointer stopped it short.
PRAGMA wal_checkpoint(TRUNCATE);
