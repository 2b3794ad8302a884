-- name: InsertOrder :exec
INSERT INTO orders (id, user_id, status, items, coupon_ids, total, discount, amount_due,
                    deadline, created_at, updated_at, version)
VALUES (@id, @user_id, 'unpaid', @items, @coupon_ids, @total, @discount, @amount_due, @deadline, @created_at, @updated_at, 1);

-- name: GetOrder :one
SELECT id, user_id, status, close_reason, items, coupon_ids, total, discount, amount_due,
       deadline, payment_id, created_at, updated_at, version
FROM orders WHERE id = @id;

-- name: GetOrderForUpdate :one
-- A payment and a close of one order queue here: the second decides on
-- what the first committed.
SELECT id, user_id, status, close_reason, items, coupon_ids, total, discount, amount_due,
       deadline, payment_id, created_at, updated_at, version
FROM orders WHERE id = @id FOR NO KEY UPDATE;

-- name: GetArchivedOrder :one
SELECT id, user_id, status, close_reason, items, coupon_ids, total, discount, amount_due,
       deadline, payment_id, created_at, updated_at, version
FROM orders_archive WHERE id = @id;

-- name: SetOrderStatus :execrows
-- The guarded order transition: only from unpaid, only at the version read.
UPDATE orders SET status = @status, close_reason = @close_reason, payment_id = @payment_id, updated_at = @updated_at,
                  version = version + 1
WHERE id = @id AND status = 'unpaid' AND version = @from_version;

-- name: OrdersDue :many
-- Unpaid orders past their deadline at now, of the shards lo to hi.
SELECT id, user_id, status, close_reason, items, coupon_ids, total, discount, amount_due,
       deadline, payment_id, created_at, updated_at, version
FROM orders WHERE status = 'unpaid' AND deadline <= @now AND shard BETWEEN @lo AND @hi
ORDER BY deadline LIMIT @lim;

-- name: ClaimOrdersDue :many
-- OrdersDue for the timeout drain: held until the batch commits; orders
-- a payment or another drain holds are left for the next batch.
SELECT id, user_id, status, close_reason, items, coupon_ids, total, discount, amount_due,
       deadline, payment_id, created_at, updated_at, version
FROM orders WHERE status = 'unpaid' AND deadline <= @now AND shard BETWEEN @lo AND @hi
ORDER BY deadline LIMIT @lim
FOR NO KEY UPDATE SKIP LOCKED;

-- name: OpenOrders :one
SELECT count(*) FROM orders WHERE status = 'unpaid';

-- name: OpenOrderPage :many
-- Unpaid orders after (deadline, id), by deadline and ID.
SELECT id, user_id, status, close_reason, items, coupon_ids, total, discount, amount_due,
       deadline, payment_id, created_at, updated_at, version
FROM orders WHERE status = 'unpaid' AND deadline >= @deadline AND (deadline > @deadline OR id > @id)
ORDER BY deadline, id LIMIT @page_size;

-- name: CloseOrders :execrows
-- The orders of ids still unpaid, closed for reason; the caller holds
-- them (OrdersDue, GetOrderForUpdate).
UPDATE orders SET status = 'closed', close_reason = @reason, updated_at = @now, version = version + 1
WHERE id = ANY(@ids::text[]) AND status = 'unpaid';

-- name: FinishedOrderPage :many
-- Paid and closed orders after the ID after, by ID.
SELECT id, user_id, status, close_reason, items, coupon_ids, total, discount, amount_due,
       deadline, payment_id, created_at, updated_at, version
FROM orders WHERE id > @after AND status <> 'unpaid' ORDER BY id LIMIT @page_size;

-- name: NextDeadline :one
-- The earliest unpaid order's deadline in a range of shards.
SELECT deadline FROM orders WHERE status = 'unpaid' AND shard BETWEEN $1 AND $2 ORDER BY deadline LIMIT 1;

-- name: DeadlineFrom :one
-- The earliest unpaid order's deadline at or after $1 in a range of
-- shards ($2, $3).
SELECT deadline FROM orders WHERE status = 'unpaid' AND deadline >= $1 AND shard BETWEEN $2 AND $3 ORDER BY deadline LIMIT 1;
