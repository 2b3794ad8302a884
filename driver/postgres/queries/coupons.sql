-- name: InsertClaimed
-- Unused coupons of template $3, claimed at $4 and expiring at $5: one for
-- each coupon ID of $1, to the user at the same place in $2.
INSERT INTO coupons (id, template_id, user_id, status, claimed_at, expires_at, updated_at, version)
SELECT c.id, $3, c.user_id, 'unused', $4, $5, $4, 1
FROM unnest($1::text[], $2::text[]) AS c(id, user_id);
