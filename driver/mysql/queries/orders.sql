-- name: DropStockBuckets
-- sku, the first bucket to drop.
DELETE FROM skus WHERE sku = ? AND bucket >= ?;

-- name: DueOrderShards
-- now, the shard, limit: one shard's earliest unpaid orders past their
-- deadline, read from the index alone (see drain.sql).
SELECT shard, deadline AS due FROM orders FORCE INDEX (orders_due)
WHERE status = 'unpaid' AND deadline <= ? AND shard = ?
ORDER BY deadline LIMIT ?

-- name: OrdersDue
-- now, the shard, limit.
SELECT id, user_id, status, close_reason, items, coupon_ids, total, discount, amount_due,
       deadline, payment_id, created_at, updated_at, version
FROM orders FORCE INDEX (orders_due)
WHERE status = 'unpaid' AND deadline <= ? AND shard = ?
ORDER BY deadline LIMIT ?;

-- name: ClaimOrdersDue
-- OrdersDue for the timeout drain: held until the batch commits; orders
-- a payment or another instance holds are left for the next batch.
SELECT id, user_id, status, close_reason, items, coupon_ids, total, discount, amount_due,
       deadline, payment_id, created_at, updated_at, version
FROM orders FORCE INDEX (orders_due)
WHERE status = 'unpaid' AND deadline <= ? AND shard = ?
ORDER BY deadline LIMIT ?
FOR UPDATE SKIP LOCKED;

-- name: NextDeadline
-- the shards: the first entry of each (see drain.sql).
SELECT first FROM (
    SELECT (SELECT deadline FROM orders FORCE INDEX (orders_due)
            WHERE status = 'unpaid' AND shard = leases.shard ORDER BY deadline LIMIT 1) AS first
    FROM leases WHERE shard IN (?, ...)
) AS firsts WHERE first IS NOT NULL ORDER BY first LIMIT 1;

-- name: OpenOrders
SELECT count(*) FROM orders FORCE INDEX (orders_due) WHERE status = 'unpaid';
