-- name: InsertOperation :exec
INSERT INTO operations (id, kind, target, args, counts, actor, state, last_id, holder,
                        created_at, started_at, finished_at, lease_until, done, total)
VALUES (@id, @kind, @target, @args, @counts, @actor, @state, @last_id, @holder,
        @created_at, @started_at, @finished_at, @lease_until, @done, @total);

-- name: GetOperation :one
SELECT id, kind, target, args, counts, actor, state, last_id, holder,
       created_at, started_at, finished_at, lease_until, done, total
FROM operations WHERE id = @id;

-- name: SetOperation :exec
-- The operation of the ID, as stored.
UPDATE operations SET counts = @counts, state = @state, last_id = @last_id, holder = @holder, started_at = @started_at,
                      finished_at = @finished_at, lease_until = @lease_until, done = @done, total = @total
WHERE id = @id;

-- name: OperationsDue :many
-- Running operations nobody but holder holds at now.
SELECT id FROM operations
WHERE state = 'running' AND (holder = @holder OR holder = '' OR lease_until IS NULL OR lease_until <= @now)
ORDER BY id LIMIT @page_size;

-- name: CouponsAfter :many
-- A page of a template's coupons after the ID after, up to the ID until.
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons WHERE template_id = @template_id AND id > @after AND id <= @until ORDER BY id LIMIT @page_size;

-- name: GetPendingVoid :one
SELECT coupon_id, operation, reason, actor FROM pending_voids WHERE coupon_id = @coupon_id;

-- name: DeletePendingVoid :exec
DELETE FROM pending_voids WHERE coupon_id = @coupon_id;

-- name: PutPendingVoid :exec
INSERT INTO pending_voids (coupon_id, operation, reason, actor) VALUES (@coupon_id, @operation, @reason, @actor)
ON CONFLICT DO NOTHING;

-- name: ListOperations :many
-- A page of operations newest first, down the primary key: before the ID
-- before, in state (any when '').
SELECT id, kind, target, args, counts, actor, state, last_id, holder,
       created_at, started_at, finished_at, lease_until, done, total
FROM operations WHERE id < @before AND (state = @state OR @state = '') ORDER BY id DESC LIMIT @page_size;

-- name: UsersCoupons :many
-- The coupons of the users in the JSON array users with an ID at most
-- up_to.
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons WHERE user_id IN (SELECT value FROM json_each(@users)) AND id <= @up_to;

-- name: VoidCoupons :execrows
-- The coupons of the IDs in the JSON array ids still unused at now.
UPDATE coupons SET status = 'voided', order_id = NULL, locked_until = NULL, updated_at = @now, version = version + 1
WHERE id IN (SELECT value FROM json_each(@ids)) AND status = 'unused' AND expires_at > @now;

-- name: ExtendCoupons :execrows
-- The coupons of the IDs in the JSON array ids unused or locked: their
-- expires_at to expires_at or, if NULL, moved by by_ms.
UPDATE coupons SET expires_at = coalesce(sqlc.narg(expires_at), expires_at + @by_ms), updated_at = @updated_at, version = version + 1
WHERE id IN (SELECT value FROM json_each(@ids)) AND status IN ('unused', 'locked');

-- name: PendingVoids :many
-- Which of the coupons of the JSON array ids are marked.
SELECT coupon_id FROM pending_voids WHERE coupon_id IN (SELECT value FROM json_each(@ids));
