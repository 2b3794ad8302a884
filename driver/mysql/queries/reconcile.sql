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
