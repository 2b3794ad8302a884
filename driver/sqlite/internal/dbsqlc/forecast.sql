-- name: ShardLeases :many
SELECT shard, holder, token, expires_at FROM leases ORDER BY shard;

-- name: Forecast :many
-- What falls due in [start, end) by bucket of width ms, by kind. Each
-- part walks a due index over the range.
SELECT 'coupon.expire' AS kind, (c.expires_at - @start) / @width AS bucket, count(*) AS n FROM coupons AS c
WHERE c.status = 'unused' AND c.expires_at >= @start AND c.expires_at < @end GROUP BY bucket
UNION ALL
SELECT 'coupon.release', (l.locked_until - @start) / @width AS bucket, count(*) FROM coupons AS l
WHERE l.status = 'locked' AND l.locked_until >= @start AND l.locked_until < @end GROUP BY bucket
UNION ALL
SELECT 'order.close', (o.deadline - @start) / @width AS bucket, count(*) FROM orders AS o
WHERE o.status = 'unpaid' AND o.deadline >= @start AND o.deadline < @end GROUP BY bucket;

-- name: TemplateForecast :many
-- Forecast's coupon parts for one template: the same due indexes, whose
-- range holds template_id or the row it filters.
SELECT 'coupon.expire' AS kind, (c.expires_at - @start) / @width AS bucket, count(*) AS n FROM coupons AS c
WHERE c.status = 'unused' AND c.expires_at >= @start AND c.expires_at < @end AND c.template_id = @template_id GROUP BY bucket
UNION ALL
SELECT 'coupon.release', (l.locked_until - @start) / @width AS bucket, count(*) FROM coupons AS l
WHERE l.status = 'locked' AND l.locked_until >= @start AND l.locked_until < @end AND l.template_id = @template_id GROUP BY bucket;
