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
-- $1 template, $2 the ID after which the page starts, $3 its size, $4
-- the greatest ID it may hold: held.
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons WHERE template_id = $1 AND id > $2 AND id <= $4 ORDER BY id LIMIT $3 FOR NO KEY UPDATE;

-- name: UsersCoupons
-- $1 the user IDs: their coupons with an ID at most $2, held.
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons WHERE user_id = ANY($1::text[]) AND id <= $2 FOR NO KEY UPDATE;

-- name: VoidCoupons
-- $1 the IDs, $2 now: those still unused at now.
UPDATE coupons SET status = 'voided', order_id = NULL, locked_until = NULL, updated_at = $2, version = version + 1
WHERE id = ANY($1::text[]) AND status = 'unused' AND expires_at > $2;

-- name: ExtendCoupons
-- $1 the IDs, $2 the new expires_at or NULL to move it by $3
-- microseconds, $4 now: those unused or locked.
UPDATE coupons SET expires_at = coalesce($2::timestamptz, expires_at + $3::bigint * interval '1 microsecond'),
                   updated_at = $4, version = version + 1
WHERE id = ANY($1::text[]) AND status IN ('unused', 'locked');

-- name: PutPendingVoid
INSERT INTO pending_voids (coupon_id, operation, reason, actor) VALUES ($1, $2, $3, $4)
ON CONFLICT DO NOTHING;

-- name: TakePendingVoid
DELETE FROM pending_voids WHERE coupon_id = $1 RETURNING coupon_id, operation, reason, actor;
