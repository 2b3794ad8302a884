-- name: StockPage
-- after, limit: SKUs summed over their buckets, by SKU.
SELECT sku, CAST(SUM(available) AS SIGNED), CAST(SUM(reserved) AS SIGNED), CAST(SUM(sold) AS SIGNED), MAX(buckets), MAX(stock)
FROM skus WHERE sku > ? GROUP BY sku ORDER BY sku LIMIT ?;

-- name: FinishedOrderPage
-- id, limit: paid and closed orders after id, by ID.
SELECT id, user_id, status, close_reason, items, coupon_ids, total, discount, amount_due,
       deadline, payment_id, created_at, updated_at, version
FROM orders WHERE id > ? AND status <> 'unpaid' ORDER BY id LIMIT ?;

-- name: ExpiryFrom
SELECT MIN(expires_at) FROM coupons WHERE status = 'unused' AND expires_at >= ?;

-- name: ReleaseFrom
SELECT MIN(locked_until) FROM coupons WHERE locked_until >= ? AND status = 'locked';

-- name: DeadlineFrom
-- from, the shards: the first unpaid order's deadline at or after from,
-- one dive into each shard's range (see drain.sql); NULL if none.
SELECT MIN(first) FROM (
    SELECT (SELECT deadline FROM orders FORCE INDEX (orders_due)
            WHERE status = 'unpaid' AND deadline >= ? AND shard = leases.shard ORDER BY deadline LIMIT 1) AS first
    FROM leases WHERE shard IN (?, ...)
) AS firsts;
