-- name: CountUserTemplate
-- A user's coupons of a template, archived ones too.
SELECT (SELECT count(*) FROM coupons WHERE user_id = ?1 AND template_id = ?2)
     + (SELECT count(*) FROM coupons_archive WHERE user_id = ?1 AND template_id = ?2);

-- name: GetCoupon
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons WHERE id = ?;

-- name: UserCoupons
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons WHERE user_id = ? ORDER BY claimed_at, id;

-- name: CompareAndSet
-- The guarded transition: it changes nothing unless the coupon is still
-- in the state and version the decision was made on.
UPDATE coupons SET status = ?, order_id = ?, locked_until = ?, updated_at = ?, version = version + 1
WHERE id = ? AND status = ? AND version = ?;
