-- name: CountUserTemplate
SELECT count(*) FROM coupons WHERE user_id = $1 AND template_id = $2;

-- name: InsertCoupon
INSERT INTO coupons (id, template_id, user_id, status, claimed_at, expires_at, updated_at, version)
VALUES ($1, $2, $3, 'unused', $4, $5, $6, 1);

-- name: GetCoupon
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons WHERE id = $1;

-- name: GetCouponForUpdate
-- A transition decides on the row it holds: a racer waits here, then
-- decides on what the winner left.
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons WHERE id = $1 FOR NO KEY UPDATE;

-- name: UserCoupons
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons WHERE user_id = $1 ORDER BY claimed_at, id;

-- name: CompareAndSet
-- The guarded transition: it changes nothing unless the coupon is still
-- in the state and version the decision was made on.
UPDATE coupons SET status = $1, order_id = $2, locked_until = $3, updated_at = $4, version = version + 1
WHERE id = $5 AND status = $6 AND version = $7;
