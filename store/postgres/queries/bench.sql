-- Used by `lapse bench` only: the drains lapse is measured against.

-- name: NaiveExpire
-- The seeds' single UPDATE.
UPDATE coupons SET status = 'expired', updated_at = $1, version = version + 1
WHERE expires_at <= $1 AND status = 'unused';

-- name: FloorExpire
-- $1 now, $2 limit. A batch with no events, counts, ordering or row locks.
UPDATE coupons SET status = 'expired', updated_at = $1, version = version + 1
WHERE id = ANY(ARRAY(SELECT id FROM coupons WHERE status = 'unused' AND expires_at <= $1 LIMIT $2));

-- name: ExpiryLags
SELECT updated_at - expires_at FROM coupons WHERE status = 'expired';
