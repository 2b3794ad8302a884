-- name: ExpiryFrom
SELECT min(expires_at) FROM coupons WHERE status = 'unused' AND expires_at >= ?;

-- name: ReleaseFrom
SELECT min(locked_until) FROM coupons WHERE status = 'locked' AND locked_until >= ?;

-- name: DeadlineFrom
-- ?1 from, ?2 the shards (see queries/drain.sql).
SELECT min(deadline) FROM orders WHERE status = 'unpaid' AND deadline >= ?1 AND (?2 = '' OR lapse_shard(id) IN (SELECT value FROM json_each(?2)));
