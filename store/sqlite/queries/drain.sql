-- name: ExpireDue
-- ?1 now, ?2 limit. Walks the partial index of unused coupons in due order.
UPDATE coupons SET status = 'expired', updated_at = ?1, version = version + 1
WHERE rowid IN (
    SELECT rowid FROM coupons
    WHERE status = 'unused' AND expires_at <= ?1
    ORDER BY expires_at LIMIT ?2)
RETURNING id, template_id, user_id, expires_at;

-- name: NextExpiry
SELECT expires_at FROM coupons WHERE status = 'unused' ORDER BY expires_at LIMIT 1;

-- name: LocksDue
-- ?1 now, ?2 limit.
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons
WHERE status = 'locked' AND locked_until <= ?1
ORDER BY locked_until LIMIT ?2;

-- name: NextRelease
SELECT locked_until FROM coupons WHERE status = 'locked' ORDER BY locked_until LIMIT 1;

-- name: DueBacklog
SELECT (SELECT count(*) FROM coupons WHERE status = 'unused' AND expires_at <= ?1)
     + (SELECT count(*) FROM coupons WHERE status = 'locked' AND locked_until <= ?1)
     + (SELECT count(*) FROM orders WHERE status = 'unpaid' AND deadline <= ?1)
     + (SELECT count(*) FROM reminders WHERE status = 'planned' AND due_at <= ?1);
