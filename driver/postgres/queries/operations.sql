-- name: PutPendingVoid
INSERT INTO pending_voids (coupon_id, operation, reason, actor) VALUES ($1, $2, $3, $4)
ON CONFLICT DO NOTHING;
