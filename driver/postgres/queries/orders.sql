-- name: DropStockBuckets
-- $1 sku, $2 the first bucket to drop.
DELETE FROM skus WHERE sku = $1 AND bucket >= $2;

-- name: InsertOrder
INSERT INTO orders (id, user_id, status, items, coupon_ids, total, discount, amount_due,
                    deadline, created_at, updated_at, version)
VALUES ($1, $2, 'unpaid', $3, $4, $5, $6, $7, $8, $9, $10, 1);

-- name: GetOrder
SELECT id, user_id, status, close_reason, items, coupon_ids, total, discount, amount_due,
       deadline, payment_id, created_at, updated_at, version
FROM orders WHERE id = $1;

-- name: GetOrderForUpdate
-- A payment and a close of one order queue here: the second decides on
-- what the first committed.
SELECT id, user_id, status, close_reason, items, coupon_ids, total, discount, amount_due,
       deadline, payment_id, created_at, updated_at, version
FROM orders WHERE id = $1 FOR NO KEY UPDATE;

-- name: SetOrderStatus
-- The guarded order transition: only from unpaid, only at the version read.
UPDATE orders SET status = $1, close_reason = $2, payment_id = $3, updated_at = $4, version = version + 1
WHERE id = $5 AND status = 'unpaid' AND version = $6;

-- name: OrdersDue
-- $1 now, $2 limit, $3, $4 a range of shards.
SELECT id, user_id, status, close_reason, items, coupon_ids, total, discount, amount_due,
       deadline, payment_id, created_at, updated_at, version
FROM orders WHERE status = 'unpaid' AND deadline <= $1 AND shard BETWEEN $3 AND $4
ORDER BY deadline LIMIT $2;

-- name: ClaimOrdersDue
-- OrdersDue for the timeout drain: held until the batch commits; orders
-- a payment or another drain holds are left for the next batch.
SELECT id, user_id, status, close_reason, items, coupon_ids, total, discount, amount_due,
       deadline, payment_id, created_at, updated_at, version
FROM orders WHERE status = 'unpaid' AND deadline <= $1 AND shard BETWEEN $3 AND $4
ORDER BY deadline LIMIT $2
FOR NO KEY UPDATE SKIP LOCKED;

-- name: NextDeadline
-- $1, $2 a range of shards.
SELECT deadline FROM orders WHERE status = 'unpaid' AND shard BETWEEN $1 AND $2 ORDER BY deadline LIMIT 1;

-- name: OpenOrders
SELECT count(*) FROM orders WHERE status = 'unpaid';
