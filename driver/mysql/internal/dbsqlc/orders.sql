-- name: InsertOrder :exec
INSERT INTO orders (id, user_id, status, items, coupon_ids, total, discount, amount_due,
                    deadline, created_at, updated_at, version)
VALUES (sqlc.arg(id), sqlc.arg(user_id), 'unpaid', sqlc.arg(items), sqlc.arg(coupon_ids), sqlc.arg(total),
        sqlc.arg(discount), sqlc.arg(amount_due), sqlc.arg(deadline), sqlc.arg(created_at), sqlc.arg(updated_at), 1);

-- name: SetOrderStatus :execrows
-- The guarded order transition: only from unpaid, only at the version read.
UPDATE orders SET status = sqlc.arg(status), close_reason = sqlc.arg(close_reason), payment_id = sqlc.arg(payment_id),
                  updated_at = sqlc.arg(updated_at), version = version + 1
WHERE id = sqlc.arg(id) AND status = 'unpaid' AND version = sqlc.arg(version);

-- name: GetOrder :one
SELECT id, user_id, status, close_reason, items, coupon_ids, total, discount, amount_due,
       deadline, payment_id, created_at, updated_at, version
FROM orders WHERE id = ?;

-- name: LockOrder :one
-- A payment and a close of one order queue here: the second decides on
-- what the first committed.
SELECT id, user_id, status, close_reason, items, coupon_ids, total, discount, amount_due,
       deadline, payment_id, created_at, updated_at, version
FROM orders WHERE id = ? FOR UPDATE;

-- name: GetArchivedOrder :one
SELECT id, user_id, status, close_reason, items, coupon_ids, total, discount, amount_due,
       deadline, payment_id, created_at, updated_at, version
FROM orders_archive WHERE id = ?;

-- name: OpenOrderPage :many
-- Unpaid orders after (deadline, id), by deadline and ID.
SELECT id, user_id, status, close_reason, items, coupon_ids, total, discount, amount_due,
       deadline, payment_id, created_at, updated_at, version
FROM orders WHERE status = 'unpaid' AND deadline >= sqlc.arg(deadline) AND (deadline > sqlc.arg(deadline) OR id > sqlc.arg(id))
ORDER BY deadline, id LIMIT ?;

-- name: FinishedOrderPage :many
-- Paid and closed orders after the ID after, by ID.
SELECT id, user_id, status, close_reason, items, coupon_ids, total, discount, amount_due,
       deadline, payment_id, created_at, updated_at, version
FROM orders WHERE id > sqlc.arg(after) AND status <> 'unpaid' ORDER BY id LIMIT ?;

-- name: OpenOrders :one
SELECT count(*) FROM orders FORCE INDEX (orders_due) WHERE status = 'unpaid';

-- name: FinishedOrders :many
-- Up to limit paid or closed orders last changed at or before before, in
-- index order, held, skipping those a transaction holds.
SELECT id FROM orders WHERE status IN ('paid', 'closed') AND updated_at <= sqlc.arg(before)
LIMIT ? FOR UPDATE SKIP LOCKED;

-- name: CloseOrders :execrows
-- The orders listed still unpaid, closed for reason. The rows are held
-- (OrdersDue), so the primary key is forced, as in VoidCoupons.
UPDATE orders FORCE INDEX (PRIMARY)
SET status = 'closed', close_reason = sqlc.arg(reason), updated_at = sqlc.arg(updated_at), version = version + 1
WHERE status = 'unpaid' AND id IN (sqlc.slice(ids));
