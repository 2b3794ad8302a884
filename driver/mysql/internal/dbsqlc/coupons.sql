-- name: CompareAndSet :execrows
-- The guarded transition: it changes nothing unless the coupon is still
-- in the state and version the decision was made on.
UPDATE coupons SET status = sqlc.arg(status), order_id = sqlc.arg(order_id), locked_until = sqlc.arg(locked_until),
                   updated_at = sqlc.arg(updated_at), version = version + 1
WHERE id = sqlc.arg(id) AND status = sqlc.arg(from_status) AND version = sqlc.arg(version);

-- name: GetCoupon :one
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons WHERE id = ?;

-- name: LockCoupon :one
-- A coupon a transition decides on: held until the transaction ends.
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons WHERE id = ? FOR UPDATE;

-- name: GetArchivedCoupon :one
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons_archive WHERE id = ?;

-- name: UserCoupons :many
-- A page of the user's wallet by ID: a walk of coupons_wallet from after
-- ('' for none) that stops at limit coupons in status ('' for any) as the
-- lazy check reads them at now (an unused coupon at or past expires_at
-- reads expired).
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons
WHERE user_id = sqlc.arg(user_id) AND id > sqlc.arg(after)
  AND (sqlc.arg(status) = '' OR CASE WHEN status = 'unused' AND expires_at <= sqlc.arg(now) THEN 'expired' ELSE status END = sqlc.arg(status))
ORDER BY id LIMIT ?;

-- name: LockedPage :many
-- Locked coupons after (locked_until, id), by locked_until and ID.
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons WHERE status = 'locked' AND locked_until >= sqlc.arg(locked_until) AND (locked_until > sqlc.arg(locked_until) OR id > sqlc.arg(id))
ORDER BY locked_until, id LIMIT ?;

-- name: TerminalCoupons :many
-- Up to limit terminal coupons last changed at or before before, in index
-- order, held, skipping those a transaction holds.
SELECT id FROM coupons WHERE status IN ('used', 'expired', 'voided') AND updated_at <= sqlc.arg(before)
LIMIT ? FOR UPDATE SKIP LOCKED;
