-- name: GetCoupon
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons WHERE id = ?;

-- name: UserCoupons
-- ?1 user, ?2 after ('' for none), ?3 status ('' for any), ?4 now, ?5
-- limit. A page of the user's wallet by ID: a walk of coupons_wallet from
-- ?2 that stops at ?5 coupons in ?3 as the lazy check reads them at ?4
-- (an unused coupon at or past expires_at reads expired).
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons
WHERE user_id = ?1 AND id > ?2
  AND (?3 = '' OR CASE WHEN status = 'unused' AND expires_at <= ?4 THEN 'expired' ELSE status END = ?3)
ORDER BY id LIMIT ?5;

-- name: CompareAndSet
-- The guarded transition: it changes nothing unless the coupon is still
-- in the state and version the decision was made on.
UPDATE coupons SET status = ?, order_id = ?, locked_until = ?, updated_at = ?, version = version + 1
WHERE id = ? AND status = ? AND version = ?;
