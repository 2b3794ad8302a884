-- name: ExpiryFrom
SELECT min(expires_at) FROM coupons WHERE status = 'unused' AND expires_at >= $1;

-- name: ReleaseFrom
SELECT min(locked_until) FROM coupons WHERE status = 'locked' AND locked_until >= $1;
