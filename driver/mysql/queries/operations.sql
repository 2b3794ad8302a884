-- name: UsersCoupons
-- the greatest ID, then the user IDs: their coupons up to that ID, held.
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons WHERE id <= ? AND user_id IN (?, ...) FOR UPDATE;

-- name: VoidCoupons
-- now, now, then the IDs: those still unused at now. The rows are held
-- (CouponsAfter), so the primary key is forced, as in ExpireClaimed.
UPDATE coupons FORCE INDEX (PRIMARY)
SET status = 'voided', order_id = NULL, locked_until = NULL, updated_at = ?, version = version + 1
WHERE status = 'unused' AND expires_at > ? AND id IN (?, ...);

-- name: ExtendCoupons
-- the new expires_at or NULL to move it by the microseconds next, now,
-- then the IDs: those unused or locked.
UPDATE coupons FORCE INDEX (PRIMARY)
SET expires_at = COALESCE(?, expires_at + INTERVAL ? MICROSECOND), updated_at = ?, version = version + 1
WHERE status IN ('unused', 'locked') AND id IN (?, ...);

-- name: PendingVoids
-- the coupon IDs: those marked.
SELECT coupon_id FROM pending_voids WHERE coupon_id IN (?, ...);
