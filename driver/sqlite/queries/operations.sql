-- name: UsersCoupons
-- ?1 the JSON array of user IDs: their coupons with an ID at most ?2.
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons WHERE user_id IN (SELECT value FROM json_each(?1)) AND id <= ?2;

-- name: VoidCoupons
-- ?1 the JSON array of IDs, ?2 now: those still unused at now.
UPDATE coupons SET status = 'voided', order_id = NULL, locked_until = NULL, updated_at = ?2, version = version + 1
WHERE id IN (SELECT value FROM json_each(?1)) AND status = 'unused' AND expires_at > ?2;

-- name: ExtendCoupons
-- ?1 the JSON array of IDs, ?2 the new expires_at or NULL to move it by
-- ?3 ms, ?4 now: those unused or locked.
UPDATE coupons SET expires_at = coalesce(?2, expires_at + ?3), updated_at = ?4, version = version + 1
WHERE id IN (SELECT value FROM json_each(?1)) AND status IN ('unused', 'locked');

-- name: PendingVoids
-- ?1 the JSON array of coupon IDs: those marked.
SELECT coupon_id FROM pending_voids WHERE coupon_id IN (SELECT value FROM json_each(?1));
