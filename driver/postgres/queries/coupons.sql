-- name: InsertClaimed
-- Unused coupons of template $3, claimed at $4 and expiring at $5: one for
-- each coupon ID of $1, to the user at the same place in $2.
INSERT INTO coupons (id, template_id, user_id, status, claimed_at, expires_at, updated_at, version)
SELECT c.id, $3, c.user_id, 'unused', $4, $5, $4, 1
FROM unnest($1::text[], $2::text[]) AS c(id, user_id);

-- name: ExistingCoupons
-- Which of the IDs $1 name a stored coupon, archived or not.
SELECT id FROM coupons WHERE id = ANY($1::text[])
UNION ALL
SELECT id FROM coupons_archive WHERE id = ANY($1::text[]);

-- name: HeldCounts
-- How many coupons of template $2 each user of $1 holds, archived ones
-- too.
SELECT u, (SELECT count(*) FROM coupons WHERE user_id = u AND template_id = $2)
        + (SELECT count(*) FROM coupons_archive WHERE user_id = u AND template_id = $2)
FROM unnest($1::text[]) AS u;
