-- name: StockPage
-- $1 after, $2 limit: SKUs summed over their buckets, by SKU.
SELECT sku, sum(available)::bigint, sum(reserved)::bigint, sum(sold)::bigint, max(buckets)::int, max(stock)
FROM skus WHERE sku > $1 GROUP BY sku ORDER BY sku LIMIT $2;

-- name: FinishedOrderPage
-- $1 id, $2 limit: paid and closed orders after id, by ID.
SELECT id, user_id, status, close_reason, items, coupon_ids, total, discount, amount_due,
       deadline, payment_id, created_at, updated_at, version
FROM orders WHERE id > $1 AND status <> 'unpaid' ORDER BY id LIMIT $2;

-- name: ExpiryFrom
SELECT min(expires_at) FROM coupons WHERE status = 'unused' AND expires_at >= $1;

-- name: ReleaseFrom
SELECT min(locked_until) FROM coupons WHERE status = 'locked' AND locked_until >= $1;

-- name: DeadlineFrom
-- $1 from, $2, $3 a range of shards (see drain.sql).
SELECT deadline FROM orders WHERE status = 'unpaid' AND deadline >= $1 AND shard BETWEEN $2 AND $3 ORDER BY deadline LIMIT 1;
