-- The drains claim due rows with FOR UPDATE SKIP LOCKED, so instances
-- draining side by side take disjoint batches, then change exactly the
-- rows claimed. A batch first reads, without locking, the earliest due
-- entries of each of its shards (a Due… query per shard: its due index
-- leads with (state, shard), so each is a range of that shard's due
-- entries in due order, 0009_shard_due.sql), merged earliest first up to
-- the limit: how many rows the batch takes of each shard (readDue in
-- shards.go). Then it claims them shard by shard (a Claim… query), a
-- locking walk of that shard's range alone, which holds the rows it
-- returns and skips, without locking, rows others hold: InnoDB locks
-- every entry a locking read passes, so a walk over other shards' rows
-- would hold them too. FORCE INDEX keeps these plans even when most of
-- the table is due, as in a storm.
-- What reads every shard at once reads the first entry of each, one index
-- dive per shard (the shards listed are rows of leases, which has one per
-- shard: MariaDB plans no loose index scan of a GROUP BY shard with a
-- WHERE), or each shard's range (a list of them).

-- name: DueExpiryShards
-- now, the shard, limit: one shard's earliest due unused coupons, read
-- from the index alone (see readDue).
SELECT shard, expires_at AS due FROM coupons FORCE INDEX (coupons_due)
WHERE status = 'unused' AND expires_at <= ? AND shard = ?
ORDER BY expires_at LIMIT ?

-- name: ClaimExpiries
-- now, the shard, limit.
SELECT id, template_id, user_id, expires_at
FROM coupons FORCE INDEX (coupons_due)
WHERE status = 'unused' AND expires_at <= ? AND shard = ?
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
-- the shards: the first entry of each.
SELECT first FROM (
    SELECT (SELECT expires_at FROM coupons FORCE INDEX (coupons_due)
            WHERE status = 'unused' AND shard = leases.shard ORDER BY expires_at LIMIT 1) AS first
    FROM leases WHERE shard IN (?, ...)
) AS firsts WHERE first IS NOT NULL ORDER BY first LIMIT 1;

-- name: DueLockShards
-- now, the shard, limit: one shard's earliest due locks. locked_until is
-- set while a coupon is locked and NULL in every other state: the range
-- on it reads locked coupons only.
SELECT shard, locked_until AS due FROM coupons FORCE INDEX (coupons_lock_due)
WHERE locked_until <= ? AND shard = ?
ORDER BY locked_until LIMIT ?

-- name: ClaimLocks
-- now, the shard, limit.
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons FORCE INDEX (coupons_lock_due)
WHERE status = 'locked' AND locked_until <= ? AND shard = ?
ORDER BY locked_until LIMIT ?
FOR UPDATE SKIP LOCKED;

-- name: NextRelease
-- the shards. IS NOT NULL starts each walk after the NULLs of every
-- other state.
SELECT first FROM (
    SELECT (SELECT locked_until FROM coupons FORCE INDEX (coupons_lock_due)
            WHERE locked_until IS NOT NULL AND status = 'locked' AND shard = leases.shard ORDER BY locked_until LIMIT 1) AS first
    FROM leases WHERE shard IN (?, ...)
) AS firsts WHERE first IS NOT NULL ORDER BY first LIMIT 1;

-- name: DueBacklog
-- now, now, now, now. The lists are every shard (store.Shards is 16).
SELECT (SELECT count(*) FROM coupons FORCE INDEX (coupons_due)
        WHERE status = 'unused' AND expires_at <= ? AND shard IN (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15))
     + (SELECT count(*) FROM coupons FORCE INDEX (coupons_lock_due)
        WHERE status = 'locked' AND locked_until <= ? AND shard IN (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15))
     + (SELECT count(*) FROM orders FORCE INDEX (orders_due)
        WHERE status = 'unpaid' AND deadline <= ? AND shard IN (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15))
     + (SELECT count(*) FROM reminders FORCE INDEX (reminders_due)
        WHERE status = 'planned' AND due_at <= ? AND shard IN (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
