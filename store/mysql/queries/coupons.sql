-- name: CountUserTemplate
-- user, template, user, template: a user's coupons of a template,
-- archived ones too.
SELECT (SELECT count(*) FROM coupons WHERE user_id = ? AND template_id = ?)
     + (SELECT count(*) FROM coupons_archive WHERE user_id = ? AND template_id = ?);

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
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons WHERE user_id = ? ORDER BY claimed_at, id;

-- name: CompareAndSet
-- The guarded transition: it changes nothing unless the coupon is still
-- in the state and version the decision was made on.
UPDATE coupons SET status = ?, order_id = ?, locked_until = ?, updated_at = ?, version = version + 1
WHERE id = ? AND status = ? AND version = ?;

-- name: LockCoupon
-- A coupon a transition decides on: held until the transaction ends.
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons WHERE id = ? FOR UPDATE;
