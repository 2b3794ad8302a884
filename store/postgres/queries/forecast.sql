-- The console's reads: what falls due ahead, the shard leases and the instances.

-- name: Forecast
-- $1 the first bucket's start, $2 the last bucket's end, $3 the bucket
-- width in milliseconds. Each part walks a due index over the range;
-- extract gives the microseconds a timestamptz keeps, and floor puts an
-- item due a microsecond before a bucket's end in that bucket.
SELECT 'coupon.expire', floor(extract(epoch FROM expires_at - $1::timestamptz) * 1000 / $3)::bigint AS bucket, count(*)
FROM coupons WHERE status = 'unused' AND expires_at >= $1 AND expires_at < $2 GROUP BY bucket
UNION ALL
SELECT 'coupon.release', floor(extract(epoch FROM locked_until - $1::timestamptz) * 1000 / $3)::bigint AS bucket, count(*)
FROM coupons WHERE status = 'locked' AND locked_until >= $1 AND locked_until < $2 GROUP BY bucket
UNION ALL
SELECT 'order.close', floor(extract(epoch FROM deadline - $1::timestamptz) * 1000 / $3)::bigint AS bucket, count(*)
FROM orders WHERE status = 'unpaid' AND deadline >= $1 AND deadline < $2 GROUP BY bucket;

-- name: ShardLeases
-- A free shard's expires_at is -infinity, which time.Time cannot hold:
-- it reads as the epoch, as on the other stores.
SELECT shard, holder, token, greatest(expires_at, 'epoch'::timestamptz) FROM leases ORDER BY shard;

-- name: Instances
-- $1 how long ago, in ms, an instance was last seen at the latest. By name.
SELECT holder, seen_at, skew_ms, skew_at FROM instances
WHERE seen_at > clock_timestamp() - $1 * interval '1 millisecond' ORDER BY holder COLLATE "C";
