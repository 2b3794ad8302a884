-- name: Forecast :many
-- What falls due in [from_time, end_time) by bucket of width_ms
-- milliseconds, by kind. Status and every shard lead the due indexes (see
-- DueBacklog), so each part walks its index over the range. The casts
-- type the bucket and the width for sqlc; the locks' range is named
-- apart, locked_until being nullable.
SELECT 'coupon.expire' AS kind,
       CAST(FLOOR(TIMESTAMPDIFF(MICROSECOND, sqlc.arg(from_time), c.expires_at) / (CAST(sqlc.arg(width_ms) AS SIGNED) * 1000)) AS SIGNED) AS bucket,
       count(*) AS n
FROM coupons AS c FORCE INDEX (coupons_due)
WHERE c.status = 'unused' AND c.expires_at >= sqlc.arg(from_time) AND c.expires_at < sqlc.arg(end_time)
  AND c.shard IN (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
GROUP BY bucket
UNION ALL
SELECT 'coupon.release',
       CAST(FLOOR(TIMESTAMPDIFF(MICROSECOND, sqlc.arg(from_time), l.locked_until) / (CAST(sqlc.arg(width_ms) AS SIGNED) * 1000)) AS SIGNED) AS bucket,
       count(*)
FROM coupons AS l FORCE INDEX (coupons_lock_due)
WHERE l.status = 'locked' AND l.locked_until >= sqlc.arg(release_from) AND l.locked_until < sqlc.arg(release_end)
  AND l.shard IN (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
GROUP BY bucket
UNION ALL
SELECT 'order.close',
       CAST(FLOOR(TIMESTAMPDIFF(MICROSECOND, sqlc.arg(from_time), o.deadline) / (CAST(sqlc.arg(width_ms) AS SIGNED) * 1000)) AS SIGNED) AS bucket,
       count(*)
FROM orders AS o FORCE INDEX (orders_due)
WHERE o.status = 'unpaid' AND o.deadline >= sqlc.arg(from_time) AND o.deadline < sqlc.arg(end_time)
  AND o.shard IN (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
GROUP BY bucket;

-- name: TemplateForecast :many
-- Forecast's coupon parts for one template: coupons_due holds
-- template_id; coupons_lock_due leads to the row that does.
SELECT 'coupon.expire' AS kind,
       CAST(FLOOR(TIMESTAMPDIFF(MICROSECOND, sqlc.arg(from_time), c.expires_at) / (CAST(sqlc.arg(width_ms) AS SIGNED) * 1000)) AS SIGNED) AS bucket,
       count(*) AS n
FROM coupons AS c FORCE INDEX (coupons_due)
WHERE c.status = 'unused' AND c.expires_at >= sqlc.arg(from_time) AND c.expires_at < sqlc.arg(end_time)
  AND c.template_id = sqlc.arg(template_id)
  AND c.shard IN (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
GROUP BY bucket
UNION ALL
SELECT 'coupon.release',
       CAST(FLOOR(TIMESTAMPDIFF(MICROSECOND, sqlc.arg(from_time), l.locked_until) / (CAST(sqlc.arg(width_ms) AS SIGNED) * 1000)) AS SIGNED) AS bucket,
       count(*)
FROM coupons AS l FORCE INDEX (coupons_lock_due)
WHERE l.status = 'locked' AND l.locked_until >= sqlc.arg(release_from) AND l.locked_until < sqlc.arg(release_end)
  AND l.template_id = sqlc.arg(template_id)
  AND l.shard IN (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
GROUP BY bucket;
