-- name: InsertOperation :exec
INSERT INTO operations (id, kind, target, args, counts, actor, state, last_id, holder,
                        created_at, started_at, finished_at, lease_until, done, total)
VALUES (sqlc.arg(id), sqlc.arg(kind), sqlc.arg(target), sqlc.arg(args), sqlc.arg(counts), sqlc.arg(actor),
        sqlc.arg(state), sqlc.arg(last_id), sqlc.arg(holder), sqlc.arg(created_at), sqlc.arg(started_at),
        sqlc.arg(finished_at), sqlc.arg(lease_until), sqlc.arg(done), sqlc.arg(total));

-- name: GetOperation :one
SELECT id, kind, target, args, counts, actor, state, last_id, holder,
       created_at, started_at, finished_at, lease_until, done, total
FROM operations WHERE id = sqlc.arg(id);

-- name: LockOperation :one
-- A batch holds its operation: another instance's batch waits, then
-- finds it no longer holds the lease.
SELECT id, kind, target, args, counts, actor, state, last_id, holder,
       created_at, started_at, finished_at, lease_until, done, total
FROM operations WHERE id = sqlc.arg(id) FOR UPDATE;

-- name: SetOperation :exec
UPDATE operations SET counts = sqlc.arg(counts), state = sqlc.arg(state), last_id = sqlc.arg(last_id),
                      holder = sqlc.arg(holder), started_at = sqlc.arg(started_at),
                      finished_at = sqlc.arg(finished_at), lease_until = sqlc.arg(lease_until),
                      done = sqlc.arg(done), total = sqlc.arg(total)
WHERE id = sqlc.arg(id);

-- name: OperationsDue :many
-- Running operations nobody else holds; LIMIT takes no sqlc.arg in the
-- MySQL parser.
SELECT id FROM operations
WHERE state = 'running' AND (holder = sqlc.arg(holder) OR holder = '' OR lease_until IS NULL OR lease_until <= sqlc.arg(now))
ORDER BY id LIMIT ?;

-- name: GetPendingVoid :one
SELECT coupon_id, operation, reason, actor FROM pending_voids WHERE coupon_id = sqlc.arg(coupon_id) FOR UPDATE;

-- name: DeletePendingVoid :exec
DELETE FROM pending_voids WHERE coupon_id = sqlc.arg(coupon_id);

-- name: CouponsAfter :many
-- template, the ID after which the page starts, the greatest ID it may
-- hold, its size: held. Left to
-- itself MariaDB walks (template_id) from the template's first coupon
-- ("ref", the cursor a filter), so each page cost more than the last (a
-- page of 100 at 175,000 in: 219 ms, 2,022 pages), or walks the primary
-- key through other templates' coupons; forced, it seeks (template_id,
-- id) to the cursor (4 pages, 0.06 ms).
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons FORCE INDEX (coupons_template) WHERE template_id = sqlc.arg(template_id) AND id > sqlc.arg(after) AND id <= sqlc.arg(up_to)
ORDER BY id LIMIT ? FOR UPDATE;

-- name: PutPendingVoid :exec
INSERT IGNORE INTO pending_voids (coupon_id, operation, reason, actor)
VALUES (sqlc.arg(coupon_id), sqlc.arg(operation), sqlc.arg(reason), sqlc.arg(actor));

-- name: ListOperations :many
-- A page of operations newest first, down the primary key: before the ID
-- before, in state (any when ''); LIMIT takes no sqlc.arg in the MySQL parser.
SELECT id, kind, target, args, counts, actor, state, last_id, holder,
       created_at, started_at, finished_at, lease_until, done, total
FROM operations WHERE id < sqlc.arg(before) AND (sqlc.arg(state) = '' OR state = sqlc.arg(state)) ORDER BY id DESC LIMIT ?;

-- name: UsersCoupons :many
-- The coupons of the users listed up to ID up_to, held.
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons WHERE id <= sqlc.arg(up_to) AND user_id IN (sqlc.slice(users)) FOR UPDATE;

-- name: VoidCoupons :execrows
-- The coupons listed still unused at now. The rows are held
-- (CouponsAfter), so the primary key is forced, as in ExpireClaimed.
UPDATE coupons FORCE INDEX (PRIMARY)
SET status = 'voided', order_id = NULL, locked_until = NULL, updated_at = sqlc.arg(now), version = version + 1
WHERE status = 'unused' AND expires_at > sqlc.arg(now) AND id IN (sqlc.slice(ids));

-- name: ExtendCoupons :execrows
-- The coupons listed unused or locked: their expires_at to expires_at,
-- or, if NULL, moved by by_us microseconds.
UPDATE coupons FORCE INDEX (PRIMARY)
SET expires_at = COALESCE(sqlc.narg(expires_at), expires_at + INTERVAL CAST(sqlc.arg(by_us) AS SIGNED) MICROSECOND),
    updated_at = sqlc.arg(updated_at), version = version + 1
WHERE status IN ('unused', 'locked') AND id IN (sqlc.slice(ids));

-- name: PendingVoids :many
-- Which of the coupons listed are marked.
SELECT coupon_id FROM pending_voids WHERE coupon_id IN (sqlc.slice(ids));
