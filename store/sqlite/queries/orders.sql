-- name: GetSKU
SELECT sku, available, reserved, sold FROM skus WHERE sku = ?;

-- name: PutSKU
INSERT INTO skus (sku, available, reserved, sold, updated_at) VALUES (?1, ?2, 0, 0, ?3)
ON CONFLICT (sku) DO UPDATE SET available = ?2 - reserved - sold, updated_at = ?3;

-- name: Reserve
-- ?1 sku, ?2 qty, ?3 now.
UPDATE skus SET available = available - ?2, reserved = reserved + ?2, updated_at = ?3
WHERE sku = ?1 AND available >= ?2;

-- name: Sell
UPDATE skus SET reserved = reserved - ?2, sold = sold + ?2, updated_at = ?3
WHERE sku = ?1 AND reserved >= ?2;

-- name: Release
UPDATE skus SET reserved = reserved - ?2, available = available + ?2, updated_at = ?3
WHERE sku = ?1 AND reserved >= ?2;

-- name: InsertOrder
INSERT INTO orders (id, user_id, status, items, coupon_ids, total, discount, amount_due,
                    deadline, created_at, updated_at, version)
VALUES (?, ?, 'unpaid', ?, ?, ?, ?, ?, ?, ?, ?, 1);

-- name: GetOrder
SELECT id, user_id, status, close_reason, items, coupon_ids, total, discount, amount_due,
       deadline, payment_id, created_at, updated_at, version
FROM orders WHERE id = ?;

-- name: SetOrderStatus
-- The guarded order transition: only from unpaid, only at the version read.
UPDATE orders SET status = ?, close_reason = ?, payment_id = ?, updated_at = ?, version = version + 1
WHERE id = ? AND status = 'unpaid' AND version = ?;

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

-- name: DeadlineAfter
-- ?1 after, ?2 the shards.
SELECT deadline FROM orders WHERE status = 'unpaid' AND deadline > ?1 AND (?2 = '' OR lapse_shard(id) IN (SELECT value FROM json_each(?2)))
ORDER BY deadline LIMIT 1;

-- name: OpenOrders
SELECT count(*) FROM orders WHERE status = 'unpaid';
