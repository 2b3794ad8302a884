-- The console's read of what falls due ahead.

-- name: Forecast
-- $1 the first bucket's start, $2 the last bucket's end, $3 the bucket
-- width in milliseconds. Each part walks a due index over the range and
-- groups by date_bin, the start of the item's bucket from $1 (exact to
-- the microsecond a timestamptz keeps), then numbers the buckets: with
-- 1 M coupons pending over 24 h this took 463-713 ms where grouping by
-- floor(extract(epoch ...)) took 782-1030 ms.
SELECT 'coupon.expire', (extract(epoch FROM b - $1::timestamptz) * 1000 / $3)::bigint, n FROM (
    SELECT date_bin($3 * interval '1 millisecond', expires_at, $1) AS b, count(*) AS n
    FROM coupons WHERE status = 'unused' AND expires_at >= $1 AND expires_at < $2 GROUP BY 1) AS due
UNION ALL
SELECT 'coupon.release', (extract(epoch FROM b - $1::timestamptz) * 1000 / $3)::bigint, n FROM (
    SELECT date_bin($3 * interval '1 millisecond', locked_until, $1) AS b, count(*) AS n
    FROM coupons WHERE status = 'locked' AND locked_until >= $1 AND locked_until < $2 GROUP BY 1) AS due
UNION ALL
SELECT 'order.close', (extract(epoch FROM b - $1::timestamptz) * 1000 / $3)::bigint, n FROM (
    SELECT date_bin($3 * interval '1 millisecond', deadline, $1) AS b, count(*) AS n
    FROM orders WHERE status = 'unpaid' AND deadline >= $1 AND deadline < $2 GROUP BY 1) AS due;

-- name: TemplateForecast
-- Forecast's coupon parts for template $4: coupons_due holds template_id,
-- coupons_lock_due leads to the row that does.
SELECT 'coupon.expire', (extract(epoch FROM b - $1::timestamptz) * 1000 / $3)::bigint, n FROM (
    SELECT date_bin($3 * interval '1 millisecond', expires_at, $1) AS b, count(*) AS n
    FROM coupons WHERE status = 'unused' AND expires_at >= $1 AND expires_at < $2 AND template_id = $4
    GROUP BY 1) AS due
UNION ALL
SELECT 'coupon.release', (extract(epoch FROM b - $1::timestamptz) * 1000 / $3)::bigint, n FROM (
    SELECT date_bin($3 * interval '1 millisecond', locked_until, $1) AS b, count(*) AS n
    FROM coupons WHERE status = 'locked' AND locked_until >= $1 AND locked_until < $2 AND template_id = $4
    GROUP BY 1) AS due;
