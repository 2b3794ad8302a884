-- The drains claim due rows with FOR UPDATE SKIP LOCKED, so instances
-- draining side by side take disjoint batches, then change exactly the
-- rows claimed. FORCE INDEX keeps the plan a range of one live state in
-- due order even when most of the table is due, as in a storm.

-- name: ClaimExpiries
-- now, the shards, limit.
SELECT id, template_id, user_id, expires_at
FROM coupons FORCE INDEX (coupons_due)
WHERE status = 'unused' AND expires_at <= ? AND shard IN (?, ...)
ORDER BY expires_at LIMIT ?
FOR UPDATE SKIP LOCKED;

-- name: ExpireClaimed
-- now, then the claimed IDs. MariaDB refuses IN (SELECT … LIMIT), hence
-- the list. The status guard is redundant with the rows locked, so the
-- primary key is forced: with few unused rows left, the optimizer would
-- otherwise walk a status index it is rewriting.
UPDATE coupons FORCE INDEX (PRIMARY) SET status = 'expired', updated_at = ?, version = version + 1
WHERE status = 'unused' AND id IN (?, ...);

-- name: NextExpiry
-- the shards.
SELECT expires_at FROM coupons FORCE INDEX (coupons_due)
WHERE status = 'unused' AND shard IN (?, ...) ORDER BY expires_at LIMIT 1;

-- name: ClaimLocks
-- now, the shards, limit.
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons FORCE INDEX (coupons_lock_due)
WHERE status = 'locked' AND locked_until <= ? AND shard IN (?, ...)
ORDER BY locked_until LIMIT ?
FOR UPDATE SKIP LOCKED;

-- name: NextRelease
-- The shards. IS NOT NULL starts the walk after the NULLs of
-- every other state.
SELECT locked_until FROM coupons FORCE INDEX (coupons_lock_due)
WHERE locked_until IS NOT NULL AND status = 'locked' AND shard IN (?, ...) ORDER BY locked_until LIMIT 1;

-- name: DueBacklog
-- now, now, now, now.
SELECT (SELECT count(*) FROM coupons FORCE INDEX (coupons_due) WHERE status = 'unused' AND expires_at <= ?)
     + (SELECT count(*) FROM coupons FORCE INDEX (coupons_lock_due) WHERE status = 'locked' AND locked_until <= ?)
     + (SELECT count(*) FROM orders FORCE INDEX (orders_due) WHERE status = 'unpaid' AND deadline <= ?)
     + (SELECT count(*) FROM reminders WHERE status = 'planned' AND due_at <= ?);
