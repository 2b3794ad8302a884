-- The console's reads: what falls due ahead, the shard leases and the instances. Times
-- are unix milliseconds.

-- name: Forecast
-- ?1 the first bucket's start, ?2 the last bucket's end, ?3 the bucket
-- width in milliseconds. Each part walks a due index over the range.
SELECT 'coupon.expire', (expires_at - ?1) / ?3 AS bucket, count(*) FROM coupons
WHERE status = 'unused' AND expires_at >= ?1 AND expires_at < ?2 GROUP BY bucket
UNION ALL
SELECT 'coupon.release', (locked_until - ?1) / ?3 AS bucket, count(*) FROM coupons
WHERE status = 'locked' AND locked_until >= ?1 AND locked_until < ?2 GROUP BY bucket
UNION ALL
SELECT 'order.close', (deadline - ?1) / ?3 AS bucket, count(*) FROM orders
WHERE status = 'unpaid' AND deadline >= ?1 AND deadline < ?2 GROUP BY bucket;

-- name: TemplateForecast
-- Forecast's coupon parts for template ?4: the same due indexes, whose
-- range holds template_id or the row it filters.
SELECT 'coupon.expire', (expires_at - ?1) / ?3 AS bucket, count(*) FROM coupons
WHERE status = 'unused' AND expires_at >= ?1 AND expires_at < ?2 AND template_id = ?4 GROUP BY bucket
UNION ALL
SELECT 'coupon.release', (locked_until - ?1) / ?3 AS bucket, count(*) FROM coupons
WHERE status = 'locked' AND locked_until >= ?1 AND locked_until < ?2 AND template_id = ?4 GROUP BY bucket;

-- name: Instances
-- ?1 how long ago, in ms, an instance was last seen at the latest. By name.
SELECT holder, seen_at, skew_ms, skew_at FROM instances
WHERE seen_at > (SELECT now FROM clock) - ?1 ORDER BY holder;
