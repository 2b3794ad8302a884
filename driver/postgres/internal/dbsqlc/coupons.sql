-- name: GetCoupon :one
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons WHERE id = @id;

-- name: GetCouponForUpdate :one
-- A transition decides on the row it holds: a racer waits here, then
-- decides on what the winner left.
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons WHERE id = @id FOR NO KEY UPDATE;

-- name: GetArchivedCoupon :one
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons_archive WHERE id = @id;

-- name: CompareAndSet :execrows
-- The guarded transition: it changes nothing unless the coupon is still
-- in the state and version the decision was made on.
UPDATE coupons SET status = @status, order_id = @order_id, locked_until = @locked_until, updated_at = @updated_at,
                   version = version + 1
WHERE id = @id AND status = @from_status AND version = @from_version;

-- name: TakeIssues :execrows
-- Counts n more coupons of the template issued, unless that passes the
-- total.
UPDATE templates SET issued = issued + @n
WHERE id = @id AND (total = 0 OR issued + @n <= total);

-- name: LockedPage :many
-- Locked coupons after (locked_until, id), by locked_until and ID.
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons WHERE status = 'locked' AND locked_until >= @locked_until AND (locked_until > @locked_until OR id > @id)
ORDER BY locked_until, id LIMIT @page_size;

-- name: UserCoupons :many
-- A page of the user's wallet by ID: a walk of coupons_wallet from after
-- ('' for none) that stops at page_size coupons in status ('' for any) as
-- the lazy check reads them at now (an unused coupon at or past
-- expires_at reads expired).
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons
WHERE user_id = @user_id AND id > @after
  AND (@status::text = '' OR CASE WHEN status = 'unused' AND expires_at <= @now THEN 'expired' ELSE status END = @status)
ORDER BY id LIMIT @page_size;

-- name: LockCoupons :many
-- The coupons of ids a batch of orders holds, held in ID order.
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons WHERE id = ANY(@ids::text[]) ORDER BY id FOR NO KEY UPDATE;

-- name: UnlockCoupons :execrows
-- The coupons of ids still locked, given back to status; the caller
-- holds them (LockCoupons).
UPDATE coupons SET status = @status, order_id = NULL, locked_until = NULL, updated_at = @now, version = version + 1
WHERE id = ANY(@ids::text[]) AND status = 'locked';

-- name: LocksDue :many
-- Up to $2 locked coupons of a range of shards ($3, $4) due at $1. Held
-- until the batch commits; rows a user's transition holds are left for
-- the next batch. The drain's text, as it was by name.
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons
WHERE status = 'locked' AND locked_until <= $1 AND shard BETWEEN $3 AND $4
ORDER BY locked_until LIMIT $2
FOR NO KEY UPDATE SKIP LOCKED;

-- name: NextExpiry :one
-- The earliest unused coupon's expiry in a range of shards.
SELECT expires_at FROM coupons WHERE status = 'unused' AND shard BETWEEN $1 AND $2 ORDER BY expires_at LIMIT 1;

-- name: NextRelease :one
-- The earliest locked coupon's lock end in a range of shards.
SELECT locked_until FROM coupons WHERE status = 'locked' AND shard BETWEEN $1 AND $2 ORDER BY locked_until LIMIT 1;
