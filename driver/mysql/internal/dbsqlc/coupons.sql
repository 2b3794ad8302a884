-- name: CompareAndSet :execrows
-- The guarded transition: it changes nothing unless the coupon is still
-- in the state and version the decision was made on.
UPDATE coupons SET status = sqlc.arg(status), order_id = sqlc.arg(order_id), locked_until = sqlc.arg(locked_until),
                   updated_at = sqlc.arg(updated_at), version = version + 1
WHERE id = sqlc.arg(id) AND status = sqlc.arg(from_status) AND version = sqlc.arg(version);
