-- A drain given leases takes the rows of their shards only: its shards
-- argument is their JSON array, tested on each row the due index walk
-- meets; without leases it is '', the test stops there and the walk
-- reads only the index, as before there were shards.

-- name: ExpireDue
-- ?1 now, ?2 limit, ?3 the shards (see shardFilter). Walks the partial
-- index of unused coupons in due order.
UPDATE coupons SET status = 'expired', updated_at = ?1, version = version + 1
WHERE rowid IN (
    SELECT rowid FROM coupons
    WHERE status = 'unused' AND expires_at <= ?1 AND (?3 = '' OR lapse_shard(id) IN (SELECT value FROM json_each(?3)))
    ORDER BY expires_at LIMIT ?2)
RETURNING id, template_id, user_id, expires_at;

-- name: NextExpiry
-- ?1 the shards.
SELECT expires_at FROM coupons WHERE status = 'unused' AND (?1 = '' OR lapse_shard(id) IN (SELECT value FROM json_each(?1)))
ORDER BY expires_at LIMIT 1;

-- name: LocksDue
-- ?1 now, ?2 limit, ?3 the shards.
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons
WHERE status = 'locked' AND locked_until <= ?1 AND (?3 = '' OR lapse_shard(id) IN (SELECT value FROM json_each(?3)))
ORDER BY locked_until LIMIT ?2;

-- name: NextRelease
-- ?1 the shards.
SELECT locked_until FROM coupons WHERE status = 'locked' AND (?1 = '' OR lapse_shard(id) IN (SELECT value FROM json_each(?1)))
ORDER BY locked_until LIMIT 1;

-- name: DueBacklog
SELECT (SELECT count(*) FROM coupons WHERE status = 'unused' AND expires_at <= ?1)
     + (SELECT count(*) FROM coupons WHERE status = 'locked' AND locked_until <= ?1)
     + (SELECT count(*) FROM orders WHERE status = 'unpaid' AND deadline <= ?1)
     + (SELECT count(*) FROM reminders WHERE status = 'planned' AND due_at <= ?1);
