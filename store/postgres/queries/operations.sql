-- name: InsertOperation
INSERT INTO operations (id, kind, target, args, counts, actor, state, last_id, holder,
                        created_at, started_at, finished_at, lease_until, done, total)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15);

-- name: GetOperation
SELECT id, kind, target, args, counts, actor, state, last_id, holder,
       created_at, started_at, finished_at, lease_until, done, total
FROM operations WHERE id = $1;

-- name: GetOperationForUpdate
-- A batch holds its operation: another instance's batch waits, then
-- finds it no longer holds the lease.
SELECT id, kind, target, args, counts, actor, state, last_id, holder,
       created_at, started_at, finished_at, lease_until, done, total
FROM operations WHERE id = $1 FOR UPDATE;

-- name: SetOperation
UPDATE operations SET counts = $2, state = $3, last_id = $4, holder = $5, started_at = $6,
                      finished_at = $7, lease_until = $8, done = $9, total = $10
WHERE id = $1;

-- name: OperationsDue
-- $1 holder, $2 now, $3 limit: running operations nobody else holds.
SELECT id FROM operations
WHERE state = 'running' AND (holder = $1 OR holder = '' OR lease_until IS NULL OR lease_until <= $2)
ORDER BY id LIMIT $3;

-- name: CouponsAfter
-- $1 template, $2 the ID after which the page starts, $3 its size: held.
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons WHERE template_id = $1 AND id > $2 ORDER BY id LIMIT $3 FOR NO KEY UPDATE;

-- name: ExtendCoupon
-- $1 expires_at, $2 now, $3 id, $4 status read, $5 version read.
UPDATE coupons SET expires_at = $1, updated_at = $2, version = version + 1
WHERE id = $3 AND status = $4 AND version = $5;

-- name: PutPendingVoid
INSERT INTO pending_voids (coupon_id, operation, reason, actor) VALUES ($1, $2, $3, $4)
ON CONFLICT DO NOTHING;

-- name: TakePendingVoid
DELETE FROM pending_voids WHERE coupon_id = $1 RETURNING coupon_id, operation, reason, actor;
