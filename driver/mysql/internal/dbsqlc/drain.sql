-- name: ClaimExpiries :many
-- The drains' claims walk one shard's due range each: how many rows of
-- each shard a batch takes is read first, by the Due… queries of
-- queries/drain.sql (see readDue, and that file on why).
SELECT id, template_id, user_id, expires_at
FROM coupons FORCE INDEX (coupons_due)
WHERE status = 'unused' AND expires_at <= sqlc.arg(now) AND shard = sqlc.arg(shard)
ORDER BY expires_at LIMIT ?
FOR UPDATE SKIP LOCKED;

-- name: ClaimLocks :many
SELECT id, template_id, user_id, status, claimed_at, expires_at, order_id, locked_until, updated_at, version
FROM coupons FORCE INDEX (coupons_lock_due)
WHERE status = 'locked' AND locked_until <= sqlc.arg(now) AND shard = sqlc.arg(shard)
ORDER BY locked_until LIMIT ?
FOR UPDATE SKIP LOCKED;

-- name: OrdersDue :many
SELECT id, user_id, status, close_reason, items, coupon_ids, total, discount, amount_due,
       deadline, payment_id, created_at, updated_at, version
FROM orders FORCE INDEX (orders_due)
WHERE status = 'unpaid' AND deadline <= sqlc.arg(now) AND shard = sqlc.arg(shard)
ORDER BY deadline LIMIT ?;

-- name: ClaimOrdersDue :many
-- OrdersDue for the timeout drain: held until the batch commits; orders
-- a payment or another instance holds are left for the next batch.
SELECT id, user_id, status, close_reason, items, coupon_ids, total, discount, amount_due,
       deadline, payment_id, created_at, updated_at, version
FROM orders FORCE INDEX (orders_due)
WHERE status = 'unpaid' AND deadline <= sqlc.arg(now) AND shard = sqlc.arg(shard)
ORDER BY deadline LIMIT ?
FOR UPDATE SKIP LOCKED;

-- name: RemindersDue :many
-- Claimed as the coupon drains claim: a reminder another instance holds
-- is skipped.
SELECT id, user_id, lead_ms, first_at, last_at, due_at
FROM reminders FORCE INDEX (reminders_due)
WHERE status = 'planned' AND due_at <= sqlc.arg(now) AND shard = sqlc.arg(shard)
ORDER BY due_at LIMIT ?
FOR UPDATE SKIP LOCKED;
