-- name: ExistingCoupons
-- Which of the IDs in the JSON array ?1 name a stored coupon, archived or
-- not.
SELECT id FROM coupons WHERE id IN (SELECT value FROM json_each(?1))
UNION ALL
SELECT id FROM coupons_archive WHERE id IN (SELECT value FROM json_each(?1));

-- name: HeldCounts
-- How many coupons of template ?2 each user in the JSON array ?1 holds,
-- archived ones too, one row per element (a user listed twice is listed
-- twice).
SELECT value, (SELECT count(*) FROM coupons WHERE user_id = value AND template_id = ?2)
            + (SELECT count(*) FROM coupons_archive WHERE user_id = value AND template_id = ?2)
FROM json_each(?1);

-- name: InsertIssued
-- Issues coupons of template ?2, claimed at ?3 and expiring at ?4: one for
-- each [coupon ID, user ID] pair of the JSON array ?1.
INSERT INTO coupons (id, template_id, user_id, status, claimed_at, expires_at, updated_at, version)
SELECT value ->> 0, ?2, value ->> 1, 'unused', ?3, ?4, ?3, 1 FROM json_each(?1);
