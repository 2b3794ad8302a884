-- Used by `lapse bench` only: the drains lapse is measured against.

-- name: Settle
-- After a seed: the whole WAL copied into the database file and the WAL
-- truncated; busy is 1 if a reader or the checkpointer stopped it short.
PRAGMA wal_checkpoint(TRUNCATE);

-- name: FloorReleaseCoupons
-- The order storm's floor, 1 of 3: ?1 now; the coupons locked by the
-- unpaid orders due by now back to unused, nothing else.
UPDATE coupons SET status = 'unused', order_id = NULL, locked_until = NULL, updated_at = ?1, version = version + 1
WHERE status = 'locked' AND order_id IN (SELECT id FROM orders WHERE status = 'unpaid' AND deadline <= ?1);

-- name: FloorReleaseStock
-- 2 of 3: their units back to each SKU's bucket 0.
UPDATE skus SET available = available + r.qty, reserved = reserved - r.qty, updated_at = ?1
FROM (SELECT json_extract(i.value, '$.sku') AS sku, sum(json_extract(i.value, '$.qty')) AS qty
      FROM orders o, json_each(o.items) i WHERE o.status = 'unpaid' AND o.deadline <= ?1 GROUP BY 1) r
WHERE skus.sku = r.sku AND skus.bucket = 0;

-- name: FloorCloseOrders
-- 3 of 3: the orders closed on timeout.
UPDATE orders SET status = 'closed', close_reason = 'timeout', updated_at = ?1, version = version + 1
WHERE status = 'unpaid' AND deadline <= ?1;
