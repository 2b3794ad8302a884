-- name: DropStockBuckets
-- ?1 sku, ?2 the first bucket to drop.
DELETE FROM skus WHERE sku = ? AND bucket >= ?;

-- name: OrdersDue
-- ?1 now, ?2 limit, ?3 the shards (see queries/drain.sql).
SELECT id, user_id, status, close_reason, items, coupon_ids, total, discount, amount_due,
       deadline, payment_id, created_at, updated_at, version
FROM orders WHERE status = 'unpaid' AND deadline <= ?1 AND (?3 = '' OR lapse_shard(id) IN (SELECT value FROM json_each(?3)))
ORDER BY deadline LIMIT ?2;

-- name: NextDeadline
-- ?1 the shards.
SELECT deadline FROM orders WHERE status = 'unpaid' AND (?1 = '' OR lapse_shard(id) IN (SELECT value FROM json_each(?1)))
ORDER BY deadline LIMIT 1;
