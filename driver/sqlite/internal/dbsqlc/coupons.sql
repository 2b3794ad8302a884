-- name: GetCoupon :one
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons WHERE id = @id;

-- name: UserCoupons :many
-- A page of the user's wallet by ID: a walk of coupons_wallet from after
-- ('' for none) that stops at page_size coupons in status ('' for any) as
-- the lazy check reads them at now (an unused coupon at or past expires_at
-- reads expired).
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons
WHERE user_id = @user_id AND id > @after
  AND (@status = '' OR CASE WHEN status = 'unused' AND expires_at <= @now THEN 'expired' ELSE status END = @status)
ORDER BY id LIMIT @page_size;

-- name: CompareAndSet :execrows
-- The guarded transition: it changes nothing unless the coupon is still
-- in the state and version the decision was made on.
UPDATE coupons SET status = @status, order_id = @order_id, locked_until = @locked_until, updated_at = @updated_at, version = version + 1
WHERE id = @id AND status = @from_status AND version = @version;

-- name: GetArchivedCoupon :one
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons_archive WHERE id = @id;
