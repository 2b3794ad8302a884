-- name: InsertOperation :exec
INSERT INTO operations (id, kind, target, args, counts, actor, state, last_id, holder,
                        created_at, started_at, finished_at, lease_until, done, total)
VALUES (@id, @kind, @target, @args, @counts, @actor, @state, @last_id, @holder,
        @created_at, @started_at, @finished_at, @lease_until, @done, @total);

-- name: GetOperation :one
SELECT id, kind, target, args, counts, actor, state, last_id, holder,
       created_at, started_at, finished_at, lease_until, done, total
FROM operations WHERE id = @id;

-- name: GetOperationForUpdate :one
-- A batch holds its operation: another instance's batch waits, then
-- finds it no longer holds the lease.
SELECT id, kind, target, args, counts, actor, state, last_id, holder,
       created_at, started_at, finished_at, lease_until, done, total
FROM operations WHERE id = @id FOR UPDATE;

-- name: SetOperation :exec
UPDATE operations SET counts = @counts, state = @state, last_id = @last_id, holder = @holder, started_at = @started_at,
                      finished_at = @finished_at, lease_until = @lease_until, done = @done, total = @total
WHERE id = @id;

-- name: OperationsDue :many
-- Running operations nobody but holder holds at now, up to lim.
SELECT id FROM operations
WHERE state = 'running' AND (holder = @holder OR holder = '' OR lease_until IS NULL OR lease_until <= @now)
ORDER BY id LIMIT @lim;

-- name: VoidCoupons :execrows
-- The coupons of ids still unused at now.
UPDATE coupons SET status = 'voided', order_id = NULL, locked_until = NULL, updated_at = @now, version = version + 1
WHERE id = ANY(@ids::text[]) AND status = 'unused' AND expires_at > @now;

-- name: ExtendCoupons :execrows
-- The coupons of ids unused or locked: expires_at set to expires_at, or
-- if NULL moved by by_us microseconds.
UPDATE coupons SET expires_at = coalesce(sqlc.narg(expires_at)::timestamptz, expires_at + sqlc.arg(by_us)::bigint * interval '1 microsecond'),
                   updated_at = @now, version = version + 1
WHERE id = ANY(@ids::text[]) AND status IN ('unused', 'locked');

-- name: TakePendingVoid :one
DELETE FROM pending_voids WHERE coupon_id = @coupon_id RETURNING coupon_id, operation, reason, actor;

-- name: CouponsAfter :many
-- A page of a template's coupons after the ID after, none past the ID
-- until: held.
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons WHERE template_id = @template_id AND id > @after AND id <= @until ORDER BY id LIMIT @page_size FOR NO KEY UPDATE;

-- name: UsersCoupons :many
-- The users' coupons with an ID at most until, held.
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons WHERE user_id = ANY(@user_ids::text[]) AND id <= @until FOR NO KEY UPDATE;

-- name: PendingVoids :many
-- Which of the coupons of ids are marked to be voided.
SELECT coupon_id FROM pending_voids WHERE coupon_id = ANY(@ids::text[]);

-- name: PutPendingVoid :exec
INSERT INTO pending_voids (coupon_id, operation, reason, actor) VALUES (@coupon_id, @operation, @reason, @actor)
ON CONFLICT DO NOTHING;

-- name: ListOperations :many
-- A page of operations newest first, down the primary key: before the ID
-- before, in state (any when '').
SELECT id, kind, target, args, counts, actor, state, last_id, holder,
       created_at, started_at, finished_at, lease_until, done, total
FROM operations WHERE id < @before AND (@state::text = '' OR state = @state) ORDER BY id DESC LIMIT @page_size;
