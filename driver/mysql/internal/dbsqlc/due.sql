-- name: NextExpiry :one
-- The earliest due time of the shards listed: the first entry of each,
-- one index dive per shard (the shards listed are rows of leases, which
-- has one per shard: MariaDB plans no loose index scan of a GROUP BY
-- shard with a WHERE). No row if none.
SELECT first FROM (
    SELECT (SELECT c.expires_at FROM coupons AS c FORCE INDEX (coupons_due)
            WHERE c.status = 'unused' AND c.shard = l.shard ORDER BY c.expires_at LIMIT 1) AS first
    FROM leases AS l WHERE l.shard IN (sqlc.slice(shards))
) AS firsts WHERE first IS NOT NULL ORDER BY first LIMIT 1;

-- name: NextRelease :one
-- As NextExpiry. IS NOT NULL starts each walk after the NULLs of every
-- other state.
SELECT first FROM (
    SELECT (SELECT c.locked_until FROM coupons AS c FORCE INDEX (coupons_lock_due)
            WHERE c.locked_until IS NOT NULL AND c.status = 'locked' AND c.shard = l.shard ORDER BY c.locked_until LIMIT 1) AS first
    FROM leases AS l WHERE l.shard IN (sqlc.slice(shards))
) AS firsts WHERE first IS NOT NULL ORDER BY first LIMIT 1;

-- name: NextDeadline :one
-- As NextExpiry.
SELECT first FROM (
    SELECT (SELECT o.deadline FROM orders AS o FORCE INDEX (orders_due)
            WHERE o.status = 'unpaid' AND o.shard = l.shard ORDER BY o.deadline LIMIT 1) AS first
    FROM leases AS l WHERE l.shard IN (sqlc.slice(shards))
) AS firsts WHERE first IS NOT NULL ORDER BY first LIMIT 1;

-- name: NextReminder :one
-- As NextExpiry.
SELECT first FROM (
    SELECT (SELECT r.due_at FROM reminders AS r FORCE INDEX (reminders_due)
            WHERE r.status = 'planned' AND r.shard = l.shard ORDER BY r.due_at LIMIT 1) AS first
    FROM leases AS l WHERE l.shard IN (sqlc.slice(shards))
) AS firsts WHERE first IS NOT NULL ORDER BY first LIMIT 1;

-- name: DeadlineFrom :one
-- The first unpaid order's deadline at or after from in the shards
-- listed, one dive into each shard's range (as NextExpiry); no row if
-- none.
SELECT first FROM (
    SELECT (SELECT o.deadline FROM orders AS o FORCE INDEX (orders_due)
            WHERE o.status = 'unpaid' AND o.deadline >= sqlc.arg(from_time) AND o.shard = l.shard ORDER BY o.deadline LIMIT 1) AS first
    FROM leases AS l WHERE l.shard IN (sqlc.slice(shards))
) AS firsts WHERE first IS NOT NULL ORDER BY first LIMIT 1;

-- name: ExpiryFrom :one
-- The first unused coupon's expiry at or after from_time; no row if none
-- (the CAST types the MIN, the HAVING drops its NULL).
SELECT CAST(MIN(expires_at) AS DATETIME(6)) AS first FROM coupons WHERE status = 'unused' AND expires_at >= sqlc.arg(from_time)
HAVING MIN(expires_at) IS NOT NULL;

-- name: ReleaseFrom :one
-- As ExpiryFrom, for the locks.
SELECT CAST(MIN(locked_until) AS DATETIME(6)) AS first FROM coupons WHERE locked_until >= sqlc.arg(from_time) AND status = 'locked'
HAVING MIN(locked_until) IS NOT NULL;

-- name: DueBacklog :one
-- Everything due at now (each ? is now): the lists are every shard
-- (store.Shards is 16), which lead the due indexes after the state.
SELECT CAST((SELECT count(*) FROM coupons AS c FORCE INDEX (coupons_due)
             WHERE c.status = 'unused' AND c.expires_at <= ? AND c.shard IN (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15))
          + (SELECT count(*) FROM coupons AS l FORCE INDEX (coupons_lock_due)
             WHERE l.status = 'locked' AND l.locked_until <= ? AND l.shard IN (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15))
          + (SELECT count(*) FROM orders AS o FORCE INDEX (orders_due)
             WHERE o.status = 'unpaid' AND o.deadline <= ? AND o.shard IN (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15))
          + (SELECT count(*) FROM reminders AS r FORCE INDEX (reminders_due)
             WHERE r.status = 'planned' AND r.due_at <= ? AND r.shard IN (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15))
       AS SIGNED) AS backlog;
