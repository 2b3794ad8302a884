-- name: CouponsAfter
-- $1 template, $2 the ID after which the page starts, $3 its size, $4
-- the greatest ID it may hold: held.
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons WHERE template_id = $1 AND id > $2 AND id <= $4 ORDER BY id LIMIT $3 FOR NO KEY UPDATE;

-- name: UsersCoupons
-- $1 the user IDs: their coupons with an ID at most $2, held.
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons WHERE user_id = ANY($1::text[]) AND id <= $2 FOR NO KEY UPDATE;

-- name: PutPendingVoid
INSERT INTO pending_voids (coupon_id, operation, reason, actor) VALUES ($1, $2, $3, $4)
ON CONFLICT DO NOTHING;
