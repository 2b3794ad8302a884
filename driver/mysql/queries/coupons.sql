-- name: InsertClaimed
-- New unused coupons: id, template, user, claimed_at, expires_at,
-- updated_at per row.
INSERT INTO coupons (id, template_id, user_id, status, claimed_at, expires_at, updated_at, version)
VALUES (?, ?, ?, 'unused', ?, ?, ?, 1), ...;
