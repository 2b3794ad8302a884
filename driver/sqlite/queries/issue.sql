-- name: HeldCounts
-- How many coupons of template ?2 each user in the JSON array ?1 holds,
-- archived ones too, one row per element (a user listed twice is listed
-- twice).
SELECT value, (SELECT count(*) FROM coupons WHERE user_id = value AND template_id = ?2)
            + (SELECT count(*) FROM coupons_archive WHERE user_id = value AND template_id = ?2)
FROM json_each(?1);
