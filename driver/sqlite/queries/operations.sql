-- name: InsertOperation
INSERT INTO operations (id, kind, target, args, counts, actor, state, last_id, holder,
                        created_at, started_at, finished_at, lease_until, done, total)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- name: GetOperation
SELECT id, kind, target, args, counts, actor, state, last_id, holder,
       created_at, started_at, finished_at, lease_until, done, total
FROM operations WHERE id = ?;

-- name: SetOperation
-- ?1 id; the rest as stored.
UPDATE operations SET counts = ?2, state = ?3, last_id = ?4, holder = ?5, started_at = ?6,
                      finished_at = ?7, lease_until = ?8, done = ?9, total = ?10
WHERE id = ?1;

-- name: OperationsDue
-- ?1 holder, ?2 now, ?3 limit: running operations nobody else holds.
SELECT id FROM operations
WHERE state = 'running' AND (holder = ?1 OR holder = '' OR lease_until IS NULL OR lease_until <= ?2)
ORDER BY id LIMIT ?3;

-- name: CouponsAfter
-- ?1 template, ?2 the ID after which the page starts, ?3 its size, ?4
-- the greatest ID it may hold.
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons WHERE template_id = ?1 AND id > ?2 AND id <= ?4 ORDER BY id LIMIT ?3;

-- name: UsersCoupons
-- ?1 the JSON array of user IDs: their coupons with an ID at most ?2.
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons WHERE user_id IN (SELECT value FROM json_each(?1)) AND id <= ?2;

-- name: VoidCoupons
-- ?1 the JSON array of IDs, ?2 now: those still unused at now.
UPDATE coupons SET status = 'voided', order_id = NULL, locked_until = NULL, updated_at = ?2, version = version + 1
WHERE id IN (SELECT value FROM json_each(?1)) AND status = 'unused' AND expires_at > ?2;

-- name: ExtendCoupons
-- ?1 the JSON array of IDs, ?2 the new expires_at or NULL to move it by
-- ?3 ms, ?4 now: those unused or locked.
UPDATE coupons SET expires_at = coalesce(?2, expires_at + ?3), updated_at = ?4, version = version + 1
WHERE id IN (SELECT value FROM json_each(?1)) AND status IN ('unused', 'locked');

-- name: PutPendingVoid
INSERT INTO pending_voids (coupon_id, operation, reason, actor) VALUES (?, ?, ?, ?)
ON CONFLICT DO NOTHING;

-- name: GetPendingVoid
SELECT coupon_id, operation, reason, actor FROM pending_voids WHERE coupon_id = ?;

-- name: DeletePendingVoid
DELETE FROM pending_voids WHERE coupon_id = ?;
