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
