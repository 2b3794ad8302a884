-- name: TemplateIssued
SELECT issued FROM templates WHERE id = ?;

-- name: AddIssued
UPDATE templates SET issued = issued + ?2 WHERE id = ?1;

-- name: ExistingCoupons
-- Which of the IDs in the JSON array ?1 name a stored coupon.
SELECT id FROM coupons WHERE id IN (SELECT value FROM json_each(?1));
