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

-- name: CloseOrders
-- the reason, now, then the IDs: those still unpaid. The rows are held
-- (OrdersDue), so the primary key is forced, as in VoidCoupons.
UPDATE orders FORCE INDEX (PRIMARY)
SET status = 'closed', close_reason = ?, updated_at = ?, version = version + 1
WHERE status = 'unpaid' AND id IN (?, ...);

-- name: LockCoupons
-- the IDs: those coupons, held, by ID.
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons WHERE id IN (?, ...) ORDER BY id FOR UPDATE;

-- name: UnlockCoupons
-- the status they move to, now, then the IDs: those still locked. The
-- rows are held (LockCoupons), so the primary key is forced.
UPDATE coupons FORCE INDEX (PRIMARY)
SET status = ?, order_id = NULL, locked_until = NULL, updated_at = ?, version = version + 1
WHERE status = 'locked' AND id IN (?, ...);
