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

-- name: CloseOrders
-- ?1 the JSON array of IDs, ?2 the reason, ?3 now: those still unpaid.
UPDATE orders SET status = 'closed', close_reason = ?2, updated_at = ?3, version = version + 1
WHERE id IN (SELECT value FROM json_each(?1)) AND status = 'unpaid';

-- name: LockCoupons
-- ?1 the JSON array of IDs: those coupons, by ID.
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons WHERE id IN (SELECT value FROM json_each(?1)) ORDER BY id;

-- name: UnlockCoupons
-- ?1 the JSON array of IDs, ?2 the status they move to, ?3 now: those
-- still locked.
UPDATE coupons SET status = ?2, order_id = NULL, locked_until = NULL, updated_at = ?3, version = version + 1
WHERE id IN (SELECT value FROM json_each(?1)) AND status = 'locked';
