-- name: ExpiryFrom
SELECT min(expires_at) FROM coupons WHERE status = 'unused' AND expires_at >= $1;

-- name: ReleaseFrom
SELECT min(locked_until) FROM coupons WHERE status = 'locked' AND locked_until >= $1;

-- name: DeadlineFrom
-- $1 from, $2, $3 a range of shards (see drain.sql).
SELECT deadline FROM orders WHERE status = 'unpaid' AND deadline >= $1 AND shard BETWEEN $2 AND $3 ORDER BY deadline LIMIT 1;
