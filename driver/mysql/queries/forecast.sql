-- The console's reads: what falls due ahead, the shard leases and the instances.

-- name: Forecast
-- from, from, end, width in milliseconds, three times over. Status and
-- every shard lead the due indexes (see DueBacklog), so each part walks
-- its index over the range.
SELECT 'coupon.expire', FLOOR(TIMESTAMPDIFF(MICROSECOND, ?, expires_at) / (? * 1000)) AS bucket, count(*)
FROM coupons FORCE INDEX (coupons_due)
WHERE status = 'unused' AND expires_at >= ? AND expires_at < ? AND shard IN (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
GROUP BY bucket
UNION ALL
SELECT 'coupon.release', FLOOR(TIMESTAMPDIFF(MICROSECOND, ?, locked_until) / (? * 1000)) AS bucket, count(*)
FROM coupons FORCE INDEX (coupons_lock_due)
WHERE status = 'locked' AND locked_until >= ? AND locked_until < ? AND shard IN (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
GROUP BY bucket
UNION ALL
SELECT 'order.close', FLOOR(TIMESTAMPDIFF(MICROSECOND, ?, deadline) / (? * 1000)) AS bucket, count(*)
FROM orders FORCE INDEX (orders_due)
WHERE status = 'unpaid' AND deadline >= ? AND deadline < ? AND shard IN (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
GROUP BY bucket;

-- name: TemplateForecast
-- Forecast's coupon parts, each then the template: from, width, from, end,
-- template, twice over. coupons_due holds template_id; coupons_lock_due
-- leads to the row that does.
SELECT 'coupon.expire', FLOOR(TIMESTAMPDIFF(MICROSECOND, ?, expires_at) / (? * 1000)) AS bucket, count(*)
FROM coupons FORCE INDEX (coupons_due)
WHERE status = 'unused' AND expires_at >= ? AND expires_at < ? AND template_id = ?
AND shard IN (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
GROUP BY bucket
UNION ALL
SELECT 'coupon.release', FLOOR(TIMESTAMPDIFF(MICROSECOND, ?, locked_until) / (? * 1000)) AS bucket, count(*)
FROM coupons FORCE INDEX (coupons_lock_due)
WHERE status = 'locked' AND locked_until >= ? AND locked_until < ? AND template_id = ?
AND shard IN (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
GROUP BY bucket;

-- name: Instances
-- how long ago, in microseconds, an instance was last seen at the latest.
-- By name.
SELECT holder, seen_at, skew_ms, skew_at FROM instances
WHERE seen_at > UTC_TIMESTAMP(6) - INTERVAL ? MICROSECOND ORDER BY holder;
