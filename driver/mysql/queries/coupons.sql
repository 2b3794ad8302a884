-- name: InsertClaimed
-- New unused coupons: id, template, user, claimed_at, expires_at,
-- updated_at per row.
INSERT INTO coupons (id, template_id, user_id, status, claimed_at, expires_at, updated_at, version)
VALUES (?, ?, ?, 'unused', ?, ?, ?, 1), ...;

-- name: ExistingCoupons
-- Which of the IDs listed name a stored coupon.
SELECT id FROM coupons WHERE id IN (?, ...);

-- name: HeldCounts
-- How many coupons of the template each of the users listed who holds any
-- holds.
SELECT user_id, count(*) FROM coupons WHERE template_id = ? AND user_id IN (?, ...) GROUP BY user_id;

-- name: ExistingArchivedCoupons
-- Which of the IDs listed name an archived coupon.
SELECT id FROM coupons_archive WHERE id IN (?, ...);

-- name: ArchivedHeldCounts
-- How many archived coupons of the template each of the users listed who
-- holds any holds.
SELECT user_id, count(*) FROM coupons_archive WHERE template_id = ? AND user_id IN (?, ...) GROUP BY user_id;

-- name: GetCoupon
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons WHERE id = ?;

-- name: UserCoupons
-- user, after ('' for none), status ('' for any), now, status, limit. A
-- page of the user's wallet by ID: a walk of coupons_wallet from after
-- that stops at limit coupons in status as the lazy check reads them at
-- now (an unused coupon at or past expires_at reads expired).
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons
WHERE user_id = ? AND id > ?
  AND (? = '' OR CASE WHEN status = 'unused' AND expires_at <= ? THEN 'expired' ELSE status END = ?)
ORDER BY id LIMIT ?;

-- name: LockCoupon
-- A coupon a transition decides on: held until the transaction ends.
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons WHERE id = ? FOR UPDATE;
